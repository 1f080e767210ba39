// Profiling workloads for the governed call path (issue 28), run under `node --cpu-prof` or for a heap snapshot:
//   node --cpu-prof --import tsx bench/profile.ts plain|sinked     sequential invokes, for the CPU profile
//   node --expose-gc --import tsx bench/profile.ts heap|heap-raw [out]  a heap snapshot with 10 000 invokes (raw calls) parked in flight
import { writeHeapSnapshot } from "node:v8";
import { call } from "@orpc/server";
import { allow, createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy, type AgentAuditEvent } from "@orpc-agent/core";
import { raw, rawBuilder, trivial, trivialBuilder } from "./fixtures.js";

const mode = process.argv[2] ?? "plain";
const actor = { id: "bench", kind: "service" as const };
const input = { id: "x" };
const options = { actor, context: {} };

if (mode === "heap" || mode === "heap-raw") {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let entered = 0;
  const parked = trivialBuilder.handler(async ({ input: i }) => {
    entered++;
    await gate;
    return { id: i.id };
  });
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ parked }) }) });
  const parkedRaw = rawBuilder.handler(async ({ input: i }) => {
    entered++;
    await gate;
    return { id: i.id };
  });
  const start = mode === "heap" ? () => runtime.invoke("parked", input, options) : () => call(parkedRaw, input, { context: {} });
  const pending = Array.from({ length: 10_000 }, start);
  while (entered < 10_000) await new Promise((r) => setImmediate(r));
  (globalThis as { gc?: () => void }).gc?.();
  console.log(writeHeapSnapshot(process.argv[3]));
  open();
  await Promise.all(pending);
} else {
  const policies = mode === "sinked" ? ["a", "b", "c"].map((name) => definePolicy(name, () => allow())) : [];
  const sink = async (_event: AgentAuditEvent) => {};
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry: createCapabilityRegistry({ trivial }), policies }),
    ...(mode === "sinked" ? { audit: sink } : {}),
  });
  const subject = mode === "raw" ? () => call(raw, input, { context: {} }) : () => runtime.invoke("trivial", input, options);
  for (let i = 0; i < 300_000; i++) await subject();
}
