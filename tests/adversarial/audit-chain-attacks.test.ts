// Issue 29, attacker's view of the audit chain: someone who can write the audit tables rewrites events and
// recomputes every hash after them (SHA-256 needs no key), then removes the signed checkpoints that would give
// the rewrite away. A verifier holding the public key must not call such a trail intact (ADR-025).
import { generateKeyPairSync, sign, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AUDIT_CHAIN_GENESIS,
  auditChainRecord,
  auditCheckpointPayload,
  auditRecordHash,
  verifyAuditTrail,
  type AgentAuditEvent,
  type AuditChainLink,
  type AuditChainRecord,
  type AuditCheckpoint,
} from "@orpc-agent/core";
import { base, build, dana, meta } from "./support/runtime.js";

const keys = generateKeyPairSync("ed25519");
const verifySignature = (payload: string, signature: string) => verify(null, Buffer.from(payload), keys.publicKey, Buffer.from(signature, "base64"));

function signed(fields: Pick<AuditCheckpoint, "chainId" | "seq" | "hash">): AuditCheckpoint {
  const unsigned = { ...fields, at: "2026-12-02T00:00:00.000Z", keyId: "k1", lost: [] };
  return { ...unsigned, signature: sign(null, Buffer.from(auditCheckpointPayload(unsigned)), keys.privateKey).toString("base64") };
}

/** A chained runtime's records after `calls` refunds, with the checkpoints its sink would sign (opening and closing). */
async function trail(calls: number) {
  const refund = base
    .meta({ agent: meta() })
    .input(z.object({ amount: z.number() }))
    .handler(() => "refunded");
  const events: AgentAuditEvent[] = [];
  const { runtime } = build({ defs: { refund }, audit: { sinks: [(event) => void events.push(event)], chain: true } });
  for (let i = 0; i < calls; i++) await runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} });
  const records = events.map((event) => auditChainRecord(event as AgentAuditEvent & { chain: AuditChainLink }));
  const last = records[records.length - 1]!;
  const checkpoints = [signed({ chainId: last.chainId, seq: 0, hash: AUDIT_CHAIN_GENESIS }), signed({ chainId: last.chainId, seq: last.seq, hash: last.hash })];
  return { records, checkpoints };
}

/** Rewrites the event at `seq` and re-links every later one, as someone with write access and no key can. */
function rewrite(records: AuditChainRecord[], seq: number, edit: (record: AuditChainRecord) => AuditChainRecord): AuditChainRecord[] {
  let prev = records.find((record) => record.seq === seq - 1)?.hash ?? AUDIT_CHAIN_GENESIS;
  return records.map((record) => {
    if (record.seq < seq) return record;
    const fields = { ...(record.seq === seq ? edit(record) : record), prev };
    const hash = auditRecordHash(fields);
    prev = hash;
    return { ...fields, hash };
  });
}

const mallory = (record: AuditChainRecord): AuditChainRecord => ({ ...record, actor: { id: "mallory", kind: "user" } });

describe("a rewritten audit trail with its checkpoints removed (issue 29, ADR-025)", () => {
  it("the untouched trail verifies with the public key", async () => {
    const { records, checkpoints } = await trail(4);
    expect(verifyAuditTrail({ events: records, checkpoints, verifySignature })).toMatchObject({ intact: true, findings: [], unsignedTail: 0 });
  });

  it("a rewrite re-linked to the end is caught by the closing checkpoint", async () => {
    const { records, checkpoints } = await trail(4);
    const report = verifyAuditTrail({ events: rewrite(records, 5, mallory), checkpoints, verifySignature });
    expect(report.intact).toBe(false);
    expect(report.findings).toEqual([expect.objectContaining({ kind: "rewritten" })]);
  });

  it("the same rewrite with every checkpoint deleted is not intact: the chain has no signed checkpoint", async () => {
    const { records } = await trail(4);
    const report = verifyAuditTrail({ events: rewrite(records, 5, mallory), checkpoints: [], verifySignature });
    expect(report.intact).toBe(false);
    expect(report.findings).toEqual([expect.objectContaining({ kind: "unsigned-chain", chainId: records[0]!.chainId })]);
  });

  it("an untouched trail whose checkpoints were deleted is not intact either (nothing vouches for it)", async () => {
    const { records } = await trail(2);
    expect(verifyAuditTrail({ events: records, checkpoints: [], verifySignature }).findings).toEqual([
      expect.objectContaining({ kind: "unsigned-chain" }),
    ]);
  });

  it("a whole chain forged from scratch next to an emptied checkpoint table is not intact", async () => {
    const genuine = await trail(2);
    const forged = await trail(2);
    const report = verifyAuditTrail({ events: [...genuine.records, ...forged.records], checkpoints: [], verifySignature });
    expect(report.findings.map((finding) => finding.kind)).toEqual(["unsigned-chain", "unsigned-chain"]);
  });

  it("without a public key (hash links only) the same trail passes: only signatures prove who wrote it", async () => {
    const { records } = await trail(4);
    expect(verifyAuditTrail({ events: rewrite(records, 5, mallory), checkpoints: [] })).toMatchObject({ intact: true, signaturesChecked: false });
  });
});
