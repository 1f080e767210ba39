import { describe, expect, it } from "vitest";
import { assertTableName, indexPrefix } from "../src/table-name.js";

describe("assertTableName (postgres.md §3.4)", () => {
  it.each(["t", "_", "orpc_agent_approvals", "app.approvals", "a1.b2", "x".repeat(63), `${"s".repeat(63)}.${"t".repeat(63)}`])(
    "accepts %j",
    (table) => {
      expect(() => assertTableName(table)).not.toThrow();
    },
  );

  it.each([
    "x; drop table t",
    'a"b',
    "1abc",
    "UPPER",
    "a.b.c",
    "",
    "a..b",
    "a.",
    ".b",
    "tab le",
    "t\n",
    "é",
    "a.1b",
    "x".repeat(64),
    `s.${"t".repeat(64)}`,
    `${"s".repeat(64)}.t`,
    undefined,
    42,
  ])("rejects %j with a TypeError naming the rule", (table) => {
    expect(() => assertTableName(table)).toThrow(TypeError);
    expect(() => assertTableName(table)).toThrow(/Invalid table name/);
  });
});

describe("indexPrefix", () => {
  it("replaces the schema dot with an underscore, and keeps a plain name", () => {
    expect(indexPrefix("app.approvals")).toBe("app_approvals");
    expect(indexPrefix("orpc_agent_approvals")).toBe("orpc_agent_approvals");
  });
});
