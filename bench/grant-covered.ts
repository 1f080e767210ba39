// Issue 45's in-memory rows: a call a standing grant covers against the same capability without approval (budget
// ≤ 1.3×), and that ungated call against a raw oRPC `call`, on the in-memory coordinator with no audit sink. CPU time,
// paired per round in alternating order, median of the per-round ratios with p25–p75, as issue 28's rows
// (invoke-path.ts). Capabilities without `grants` never reach the grant lookup; their cost is the `invokePlain` row.
//   npx tsx --tsconfig bench/tsconfig.json --expose-gc bench/grant-covered.ts [--quick]   (from the repository root: only these rows)
import { call, os } from "@orpc/server";
import { z } from "zod";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, createInMemoryApprovalCoordinator, defineGovernance } from "@orpc-agent/core";
import { cpuSequential, paired, stat, type InvokePathRow } from "./invoke-path.js";

const GRANT_COVERED_BUDGET = 1.3;

const actor = { id: "bench_requester", kind: "user" as const };
const issuer = { id: "bench_approver", kind: "user" as const };
const input = { id: "o1", amount: 10 };
const inputSchema = z.object({ id: z.string(), amount: z.number() });
const agent = { description: "Refund an order.", expose: { direct: true }, sideEffect: "write", risk: "high" } as const;
const handler = ({ input: i }: { input: { id: string } }) => ({ id: i.id, refunded: true });

export async function grantCoveredCost(options: { rounds: number; calls: number }): Promise<InvokePathRow[]> {
  const chunk = Math.max(500, Math.round(options.calls / 5));
  const pairs = options.rounds * 4;
  // Every covered call takes a use: enough for the warm-up and every timed chunk, with room to spare.
  const uses = options.calls * 2 + chunk * pairs * 2 + 1_000;
  const covered = agentProcedure(os)
    .input(inputSchema)
    .meta({ agent: { ...agent, approval: { required: true, grants: { maxUses: uses, maxTtlMs: 3_600_000, scopes: ["actor"] } } } })
    .handler(handler);
  const ungated = agentProcedure(os).input(inputSchema).meta({ agent }).handler(handler);
  const raw = os.input(inputSchema).handler(handler);

  const grantRuntime = createAgentRuntime({
    governance: defineGovernance({ registry: createCapabilityRegistry({ refund: covered }) }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
  });
  const plainRuntime = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ refund: ungated }) }) });
  await grantRuntime.grants.issue({
    capabilityId: "refund",
    actor,
    surface: "direct",
    issuers: [issuer],
    grant: { uses, ttlMs: 3_600_000, scope: "actor" },
  });
  const invokeOptions = { actor, context: {}, surface: "direct" as const };
  const grantCall = async () => {
    const result = await grantRuntime.invoke("refund", input, invokeOptions);
    if (result.status !== "completed") throw new Error(`bench: a grant-covered call ended ${result.status}`);
  };
  const plainCall = async () => {
    const result = await plainRuntime.invoke("refund", input, invokeOptions);
    if (result.status !== "completed") throw new Error(`bench: an ungated call ended ${result.status}`);
  };
  const grantChunk = () => cpuSequential(grantCall, chunk);
  const plainChunk = () => cpuSequential(plainCall, chunk);
  const rawChunk = () => cpuSequential(() => call(raw, input, { context: {} }), chunk);

  // Warm every path before the first timed round.
  await rawChunk();
  await cpuSequential(plainCall, options.calls);
  await cpuSequential(grantCall, options.calls);
  const [grantS, grantB] = await paired(grantChunk, plainChunk, pairs);
  const [plainS, plainB] = await paired(plainChunk, rawChunk, pairs);
  return [
    { key: "grantCovered", path: "grant-covered invoke vs ungated invoke", unit: "ns", stat: stat(grantS, grantB), budget: GRANT_COVERED_BUDGET },
    // Context, not a budget: the ungated shape against raw call, beside issue 28's `invokePlain` row.
    { key: "ungatedWrite", path: "ungated invoke (write, high) vs raw call", unit: "ns", stat: stat(plainS, plainB), budget: Number.NaN },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes("--quick");
  const fmt = (ns: number) => `${(ns / 1e3).toFixed(2)} µs`;
  const rows = await grantCoveredCost({ rounds: quick ? 5 : 15, calls: quick ? 2_000 : 10_000 });
  console.log(`grant-covered bench — node ${process.version}`);
  for (const { path, stat: s, budget } of rows) {
    const verdict = Number.isNaN(budget) ? "report" : `≤ ${budget.toFixed(1)}×${s.median <= budget ? "" : " OVER"}`;
    console.log(`${path}: ${fmt(s.subject)} vs ${fmt(s.baseline)}, ${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)}), ${verdict}`);
  }
  console.log(JSON.stringify({ bench: "grant-covered", node: process.version, ...Object.fromEntries(rows.flatMap((r) => [[`${r.key}Ratio`, r.stat.median], [`${r.key}Min`, r.stat.min], [`${r.key}Max`, r.stat.max], [`${r.key}Subject`, r.stat.subject], [`${r.key}Baseline`, r.stat.baseline]])) }));
}
