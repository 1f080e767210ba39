// Cost of the audit hash chain (ADR-025) per governed call: the same runtime and async sink with and without
// `audit.chain` (three events per call, each hashed and linked), plus one Ed25519 checkpoint signature, which the
// Postgres sink pays once per `everyEvents` (default 1000) stored events. Reported, not budgeted.
import { generateKeyPairSync, sign } from "node:crypto";
import {
  allow,
  AUDIT_CHAIN_GENESIS,
  auditCheckpointPayload,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  type AgentAuditEvent,
} from "@orpc-agent/core";
import { interleave, timeSequential } from "./harness.js";
import { trivial } from "./fixtures.js";

export type ChainBenchRow = { path: string; subjectNs: number; baselineNs: number; ratio: number; extraNs: number };

export async function auditChainCost(options: { rounds: number; calls: number }): Promise<{ call: ChainBenchRow; signNs: number }> {
  const policies = ["a", "b", "c"].map((name) => definePolicy(name, () => allow()));
  const governance = defineGovernance({ registry: createCapabilityRegistry({ trivial }), policies });
  const sink = async (_event: AgentAuditEvent) => {};
  const unchained = createAgentRuntime({ governance, audit: { sinks: [sink] } });
  const chained = createAgentRuntime({ governance, audit: { sinks: [sink], chain: true } });
  const input = { id: "x" };
  const invoke = { actor: { id: "bench", kind: "service" as const }, context: {} };
  const m = await interleave(
    {
      unchained: () => timeSequential(() => unchained.invoke("trivial", input, invoke), options.calls),
      chained: () => timeSequential(() => chained.invoke("trivial", input, invoke), options.calls),
    },
    options.rounds,
  );

  const { privateKey } = generateKeyPairSync("ed25519");
  const payload = Buffer.from(auditCheckpointPayload({ chainId: `chn_${crypto.randomUUID()}`, seq: 1000, hash: AUDIT_CHAIN_GENESIS, at: new Date().toISOString(), keyId: "bench", lost: [] }));
  const signs = 2_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < signs; i++) sign(null, payload, privateKey);
  const signNs = Number(process.hrtime.bigint() - start) / signs;

  return {
    call: {
      path: "invoke, 3 sync policies + async sink, audit.chain",
      subjectNs: m.chained!,
      baselineNs: m.unchained!,
      ratio: m.chained! / m.unchained!,
      extraNs: m.chained! - m.unchained!,
    },
    signNs,
  };
}
