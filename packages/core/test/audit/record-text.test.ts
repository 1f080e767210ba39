import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { auditRecordHash, type AuditChainRecord } from "../../src/index.js";
import { canonicalJson } from "../../src/approvals/canonical-json.js";

// The hand-assembled record text must equal canonical JSON of the same fields, or writers and verifiers built on
// either definition would disagree.
const reference = (record: Omit<AuditChainRecord, "hash">) =>
  createHash("sha256").update(`orpc-agent/audit-chain/v1\n${canonicalJson(record)}`).digest("hex");

describe("auditRecordHash", () => {
  const full: Omit<AuditChainRecord, "hash"> = {
    chainId: "chn_00000000-0000-4000-8000-000000000000",
    seq: 42,
    prev: "a".repeat(64),
    type: "capability.failed",
    timestamp: "2026-12-02T01:02:03.004Z",
    surface: "mcp",
    actor: { id: 'user "quoted" \u2028 ünïcode', kind: "user" },
    executionId: "exe_1",
    capabilityId: "orders.refund",
    correlationId: "corr_1",
    inputHash: "b".repeat(64),
    receiptId: "chn_00000000-0000-4000-8000-000000000000.42",
    data: { code: "EXECUTION_FAILED", stage: "execution", retryable: false, attempts: 1, policyDecisions: [{ z: 1, a: [null, true] }] },
  };

  it("equals SHA-256 over canonical JSON for every optional field present or absent", () => {
    expect(auditRecordHash(full)).toBe(reference(full));
    const optional = ["executionId", "capabilityId", "correlationId", "inputHash", "receiptId"] as const;
    for (let mask = 0; mask < 1 << optional.length; mask++) {
      const record: Record<string, unknown> = { ...full };
      optional.forEach((key, bit) => {
        if (mask & (1 << bit)) delete record[key];
      });
      expect(auditRecordHash(record as never)).toBe(reference(record as never));
    }
  });

  it("changes when any field changes", () => {
    const base = auditRecordHash(full);
    for (const edit of [{ seq: 43 }, { prev: "c".repeat(64) }, { surface: "direct" }, { actor: { id: "x", kind: "user" } }, { data: { ...full.data as object, attempts: 2 } }]) {
      expect(auditRecordHash({ ...full, ...edit } as never)).not.toBe(base);
    }
  });
});
