import { describe, expect, it } from "vitest";
import { describeInvocationJournalContract } from "../../../../../test-fixtures/invocation-journal-contract.js";
import { createInMemoryInvocationJournal } from "../../../src/server/index.js";

describeInvocationJournalContract("in-memory", async (now) => createInMemoryInvocationJournal({ now }));

describe("createInMemoryInvocationJournal", () => {
  it("is not durable: nothing survives a restart", () => {
    expect(createInMemoryInvocationJournal().durable).toBe(false);
  });
});
