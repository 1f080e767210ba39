import { generateKeyPairSync, sign, verify } from "node:crypto";
import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  AUDIT_CHAIN_GENESIS,
  auditChainRecord,
  auditCheckpointPayload,
  auditRecordHash,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  parseReceiptId,
  verifyAuditTrail,
  type AgentAuditEvent,
  type AuditChainLink,
  type AuditChainRecord,
  type AuditCheckpoint,
} from "../../src/index.js";

// ADR-025: with audit.chain every event is linked into a per-runtime hash chain and results carry a receipt.
const base = agentProcedure(os);
const registry = createCapabilityRegistry({
  orders: {
    get: base
      .input(z.object({ orderId: z.string() }))
      .meta(agentMeta({ description: "Read an order.", expose: { direct: true }, sideEffect: "read", risk: "low" }))
      .handler(async ({ input }) => ({ orderId: input.orderId, secret: "SENTINEL_OUTPUT_9d1" })),
    fail: base
      .meta(agentMeta({ description: "Always fails.", expose: { direct: true }, sideEffect: "read", risk: "low" }))
      .handler(async () => {
        throw new Error("boom");
      }),
  },
});
const governance = defineGovernance({ registry });
const actor = { id: "user_dana", kind: "user" } as const;
type Chained = AgentAuditEvent & { chain: AuditChainLink };

async function chainedRun(calls = 3) {
  const events: AgentAuditEvent[] = [];
  const runtime = createAgentRuntime({ governance, audit: { sinks: [(event) => void events.push(event)], chain: true } });
  const results = [];
  for (let i = 0; i < calls; i++) results.push(await runtime.invoke("orders.get", { orderId: `SENTINEL_INPUT_${i}` }, { actor, context: {} }));
  results.push(await runtime.invoke("orders.fail", {}, { actor, context: {} }));
  return { events: events as Chained[], results };
}

const keys = generateKeyPairSync("ed25519");
function checkpoint(fields: Omit<AuditCheckpoint, "signature" | "keyId" | "at" | "lost"> & Partial<AuditCheckpoint>): AuditCheckpoint {
  const unsigned = { at: "2026-12-02T00:00:00.000Z", keyId: "k1", lost: [], ...fields };
  return { ...unsigned, signature: sign(null, Buffer.from(auditCheckpointPayload(unsigned)), keys.privateKey).toString("base64") };
}
const verifySignature = (payload: string, signature: string, keyId: string) =>
  keyId === "k1" ? verify(null, Buffer.from(payload), keys.publicKey, Buffer.from(signature, "base64")) : ("unknown-key" as const);

function trail(records: AuditChainRecord[]) {
  const last = records[records.length - 1] as AuditChainRecord;
  const chainId = last.chainId;
  return [checkpoint({ chainId, seq: 0, hash: AUDIT_CHAIN_GENESIS }), checkpoint({ chainId, seq: last.seq, hash: last.hash })];
}

describe("audit chain (ADR-025)", () => {
  it("links every event in emission order and puts the terminal event's receipt on the result", async () => {
    const { events, results } = await chainedRun();
    expect(events.map((event) => event.chain.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]!.chain.prev).toBe(AUDIT_CHAIN_GENESIS);
    for (let i = 1; i < events.length; i++) expect(events[i]!.chain.prev).toBe(events[i - 1]!.chain.hash);
    expect(new Set(events.map((event) => event.chain.id)).size).toBe(1);
    for (const event of events) expect(auditRecordHash(auditChainRecord(event))).toBe(event.chain.hash);

    for (const result of results) {
      const terminal = events.find((event) => event.receiptId === (result as { receiptId?: string }).receiptId);
      expect(terminal?.executionId).toBe(result.executionId);
      expect(["capability.completed", "capability.failed"]).toContain(terminal?.type);
      const located = parseReceiptId((result as { receiptId: string }).receiptId);
      expect(located).toEqual({ chainId: terminal!.chain.id, seq: terminal!.chain.seq });
    }
    // Non-terminal events carry no receipt.
    expect(events.filter((event) => event.receiptId !== undefined)).toHaveLength(results.length);
  });

  it("SI-10: chained events and their records hold no input or output payload", async () => {
    const { events } = await chainedRun();
    const text = JSON.stringify(events.map((event) => ({ ...event, record: auditChainRecord(event) })));
    expect(text).not.toContain("SENTINEL_INPUT");
    expect(text).not.toContain("SENTINEL_OUTPUT");
  });

  it("leaves events and results unchanged without audit.chain", async () => {
    const events: AgentAuditEvent[] = [];
    const runtime = createAgentRuntime({ governance, audit: (event) => void events.push(event) });
    const result = await runtime.invoke("orders.get", { orderId: "o1" }, { actor, context: {} });
    expect("receiptId" in result).toBe(false);
    expect(events.some((event) => "chain" in event || "receiptId" in event)).toBe(false);
  });

  it("refuses a non-boolean audit.chain", () => {
    expect(() => createAgentRuntime({ governance, audit: { sinks: [() => {}], chain: "yes" as never } })).toThrow(TypeError);
  });

  it("gives two runtimes two chains", async () => {
    const a = await chainedRun(1);
    const b = await chainedRun(1);
    expect(a.events[0]!.chain.id).not.toBe(b.events[0]!.chain.id);
  });

  describe("verifyAuditTrail", () => {
    const records = async () => (await chainedRun(5)).events.map((event, i) => ({ ...auditChainRecord(event), ref: `row ${i + 1}` }));

    it("passes an untouched trail, in any input order", async () => {
      const rows = await records();
      const report = verifyAuditTrail({ events: [...rows].reverse(), checkpoints: trail(rows), verifySignature });
      expect(report).toMatchObject({ intact: true, events: rows.length, chains: 1, checkpoints: 2, unsignedTail: 0, findings: [] });
    });

    it("reports a modified event", async () => {
      const rows = await records();
      rows[4] = { ...rows[4]!, actor: { id: "user_mallory", kind: "user" } };
      const report = verifyAuditTrail({ events: rows, checkpoints: trail(rows), verifySignature });
      expect(report.findings).toEqual([expect.objectContaining({ kind: "modified", seq: 5, ref: "row 5" })]);
    });

    it("reports a modified event whose stored hash was recomputed", async () => {
      const rows = await records();
      const forged = { ...rows[4]!, data: { forged: true } };
      rows[4] = { ...forged, hash: auditRecordHash(forged) };
      const report = verifyAuditTrail({ events: rows, checkpoints: trail(rows), verifySignature });
      expect(report.findings).toEqual([expect.objectContaining({ kind: "modified", seq: 5 })]);
    });

    it("reports a deleted event, and a deletion hidden by renumbering", async () => {
      const rows = await records();
      const gap = verifyAuditTrail({ events: rows.filter((row) => row.seq !== 3), checkpoints: trail(rows), verifySignature });
      expect(gap.findings).toEqual([expect.objectContaining({ kind: "deleted", seq: 3 })]);
      const renumbered = rows.filter((row) => row.seq !== 3).map((row) => (row.seq > 3 ? { ...row, seq: row.seq - 1 } : row));
      const shifted = verifyAuditTrail({ events: renumbered, checkpoints: [], verifySignature: undefined });
      expect(shifted.findings).toEqual([expect.objectContaining({ kind: "deleted", seq: 3 })]);
    });

    it("reports a truncated tail that a signed checkpoint covers", async () => {
      const rows = await records();
      const report = verifyAuditTrail({ events: rows.slice(0, -2), checkpoints: trail(rows), verifySignature });
      expect(report.findings).toEqual([expect.objectContaining({ kind: "deleted", seq: rows.length - 1 })]);
    });

    it("reports a reordered event", async () => {
      const rows = await records();
      const [a, b] = [rows[2]!, rows[6]!];
      rows[2] = { ...a, seq: b.seq };
      rows[6] = { ...b, seq: a.seq };
      const report = verifyAuditTrail({ events: rows, checkpoints: trail(rows), verifySignature });
      expect(report.findings).toEqual([expect.objectContaining({ kind: "reordered", seq: 3 })]);
    });

    it("reports an inserted event, whether it duplicates a seq or renumbers the rest", async () => {
      const rows = await records();
      const forgedFields = { ...rows[3]!, seq: 4, prev: rows[2]!.hash, type: "capability.approved", data: { approvalId: "apr_x" } };
      const forged = { ...forgedFields, hash: auditRecordHash(forgedFields), ref: "forged" };
      const duplicate = verifyAuditTrail({ events: [...rows, forged], checkpoints: trail(rows), verifySignature });
      expect(duplicate.findings).toEqual([expect.objectContaining({ kind: "inserted", seq: 4, ref: "forged" })]);
      const shiftedRows = rows.map((row) => (row.seq >= 4 ? { ...row, seq: row.seq + 1 } : row));
      const shifted = verifyAuditTrail({ events: [...shiftedRows, forged], checkpoints: [], verifySignature: undefined });
      expect(shifted.findings).toEqual([expect.objectContaining({ kind: "inserted", seq: 4, ref: "forged" })]);
    });

    it("reports a chain rewritten under a checkpoint and a forged checkpoint", async () => {
      const rows = await records();
      const cps = trail(rows);
      // Every later event rewritten consistently: only the signed checkpoint notices.
      let prev = rows[1]!.hash;
      const rewritten = rows.map((row) => {
        if (row.seq < 3) return row;
        const fields = { ...row, prev, data: { rewritten: row.seq } };
        const hash = auditRecordHash(fields);
        prev = hash;
        return { ...fields, hash };
      });
      expect(verifyAuditTrail({ events: rewritten, checkpoints: cps, verifySignature }).findings).toEqual([
        expect.objectContaining({ kind: "rewritten", seq: rows.length }),
      ]);
      const resigned = { ...cps[1]!, hash: rewritten[rewritten.length - 1]!.hash };
      expect(verifyAuditTrail({ events: rewritten, checkpoints: [cps[0]!, resigned], verifySignature }).findings).toEqual([
        expect.objectContaining({ kind: "forged-checkpoint" }),
      ]);
    });

    it("reports an unsigned chain among signed ones, unknown keys, and an unsigned tail", async () => {
      const rows = await records();
      const other = await records();
      const report = verifyAuditTrail({ events: [...rows, ...other], checkpoints: trail(rows), verifySignature });
      expect(report.findings).toEqual([expect.objectContaining({ kind: "unsigned-chain", chainId: other[0]!.chainId })]);

      const unknown = verifyAuditTrail({ events: rows, checkpoints: trail(rows).map((cp) => ({ ...cp, keyId: "k0" })), verifySignature });
      expect(unknown).toMatchObject({ intact: false, findings: [], unknownKeys: ["k0"] });

      const genesisOnly = verifyAuditTrail({ events: rows, checkpoints: trail(rows).slice(0, 1), verifySignature });
      expect(genesisOnly).toMatchObject({ intact: true, unsignedTail: rows.length });
    });

    it("accepts events the writer declared lost in a signed checkpoint", async () => {
      const rows = await records();
      const last = rows[rows.length - 1]!;
      const cps = [
        checkpoint({ chainId: last.chainId, seq: 0, hash: AUDIT_CHAIN_GENESIS }),
        checkpoint({ chainId: last.chainId, seq: last.seq, hash: last.hash, lost: [{ seq: 2, hash: rows[1]!.hash }] }),
      ];
      const report = verifyAuditTrail({ events: rows.filter((row) => row.seq !== 2), checkpoints: cps, verifySignature });
      expect(report).toMatchObject({ intact: true, declaredLost: 1 });
    });
  });
});
