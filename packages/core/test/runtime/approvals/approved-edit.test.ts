import { describe, expect, it } from "vitest";
import { approvedEditOf, changedPointers } from "../../../src/runtime/approvals/approved-edit.js";
import { readApprovalDecision } from "../../../src/approvals/decide-refusals.js";
import { decisionSealText } from "../../../src/approvals/seal/content.js";
import type { ApprovalRecord } from "../../../src/approvals/types.js";

const approver = { id: "priya", kind: "user" as const };

function recordWith(decision: Record<string, unknown> | undefined, quorum?: number): ApprovalRecord {
  return {
    ...(decision === undefined ? {} : { decision: { status: "approved", approver, decidedAt: new Date(0), ...decision } }),
    ...(quorum === undefined ? {} : { quorum }),
  } as unknown as ApprovalRecord;
}

describe("changedPointers: where the input that ran differs from the one asked", () => {
  it("names each differing leaf, each key on one side only, and a whole value whose kind changed, sorted", () => {
    const before = { amount: 320, customer: { id: "c_ada", tier: "gold" }, lines: [1, 2], note: "x" };
    const after = { amount: 80, customer: { id: "c_ada" }, lines: [1, 2, 3], note: { text: "x" }, reason: "used" };
    expect(changedPointers(before, after)).toEqual(["/amount", "/customer/tier", "/lines/2", "/note", "/reason"]);
  });

  it("is empty for equal values and escapes ~ and / per RFC 6901", () => {
    expect(changedPointers({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toEqual([]);
    expect(changedPointers({ "a/b": 1, "c~d": 1 }, { "a/b": 2, "c~d": 2 })).toEqual(["/a~1b", "/c~0d"]);
  });

  it("names the root when the whole input changed kind", () => {
    expect(changedPointers({ a: 1 }, [1])).toEqual([""]);
    expect(changedPointers(1, 2)).toEqual([""]);
  });
});

describe("approvedEditOf: the edit a decision binds, or a fail-closed null", () => {
  it("none without input and hash; the pair when both are there", () => {
    expect(approvedEditOf(recordWith(undefined))).toBeUndefined();
    expect(approvedEditOf(recordWith({}))).toBeUndefined();
    expect(approvedEditOf(recordWith({ input: { a: 1 }, inputHash: "ab" }))).toEqual({ input: { a: 1 }, inputHash: "ab" });
    // JSON null is an edit, not its absence.
    expect(approvedEditOf(recordWith({ input: null, inputHash: "ab" }))).toEqual({ input: null, inputHash: "ab" });
  });

  it("null for half an edit, a hash that is not a string, or an edit on a quorum record", () => {
    expect(approvedEditOf(recordWith({ input: { a: 1 } }))).toBeNull();
    expect(approvedEditOf(recordWith({ inputHash: "ab" }))).toBeNull();
    expect(approvedEditOf(recordWith({ input: { a: 1 }, inputHash: 7 }))).toBeNull();
    expect(approvedEditOf(recordWith({ input: { a: 1 }, inputHash: "ab" }, 2))).toBeNull();
  });
});

describe("readApprovalDecision keeps an edit as every store does", () => {
  it("the input as its JSON copy, read once, and a string inputHash", () => {
    let reads = 0;
    const input = {
      get amount() {
        reads += 1;
        return 80;
      },
    };
    const decision = readApprovalDecision({ status: "approved", approver, input, inputHash: "ab" });
    expect(decision).toEqual({ status: "approved", approver, input: { amount: 80 }, inputHash: "ab" });
    expect(reads).toBe(1);
    expect(Object.getOwnPropertyDescriptor(decision.input, "amount")?.get).toBeUndefined();
  });

  it("refuses an input without a JSON form and an inputHash that is not a string (INPUT_INVALID), and leaves absent absent", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const bad of [{ input: cyclic }, { input: 10n }, { input: () => 1 }, { inputHash: 7 }]) {
      expect(() => readApprovalDecision({ status: "approved", approver, ...bad })).toThrow(expect.objectContaining({ code: "INPUT_INVALID" }));
    }
    expect(readApprovalDecision({ status: "approved", approver })).not.toHaveProperty("input");
  });
});

describe("the decision seal text", () => {
  const base = { approvalId: "apr_1", requestSeal: "v1.k.m", status: "approved" as const, approver, atMs: 1 };

  it("binds an edit's hash, and is unchanged for a decision without one (older seals still verify)", () => {
    const plain = decisionSealText(base);
    expect(plain).not.toContain("inputHash");
    expect(decisionSealText({ ...base, inputHash: undefined })).toBe(plain);
    const edited = decisionSealText({ ...base, inputHash: "ab" });
    expect(edited).not.toBe(plain);
    expect(decisionSealText({ ...base, inputHash: "cd" })).not.toBe(edited);
  });
});
