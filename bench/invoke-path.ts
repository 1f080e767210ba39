// Issue 28's table: the governed invoke path against a raw oRPC `call` of the same procedure, in one process.
// Every ratio is taken per round (subject and baseline measured back to back, order alternating), then reported as
// the median with its spread (the middle half of the rounds, p25–p75), so noise shows instead of hiding in a mean.
// Time is the process's CPU time (user + system), not the wall clock: on a shared machine another process's load
// then costs both sides nothing, instead of landing on whichever side it happened to overlap. Every timed loop keeps
// the event loop busy throughout (no idle waits), so on an idle machine the two clocks agree.
import { call } from "@orpc/server";
import { allow, createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy, type AgentAuditEvent } from "@orpc-agent/core";
import { median } from "./harness.js";
import { raw, rawBuilder, trivial, trivialBuilder } from "./fixtures.js";
import { sinkedFloor } from "./sinked-floor.js";

/** `min`/`max`: the 25th and 75th percentile of the per-round ratios. */
export type RatioStat = { median: number; min: number; max: number; subject: number; baseline: number };
export type InvokePathRow = { key: string; path: string; unit: "ns" | "bytes"; stat: RatioStat; budget: number };

const actor = { id: "bench", kind: "service" as const };
const input = { id: "x" };
const gc = () => (globalThis as { gc?: () => void }).gc?.();

const cpuNs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1e3;
};

/** CPU nanoseconds per call over `iterations` sequential awaited calls. */
export async function cpuSequential(fn: () => unknown, iterations: number): Promise<number> {
  const start = cpuNs();
  for (let i = 0; i < iterations; i++) await fn();
  return (cpuNs() - start) / iterations;
}

/**
 * Budgets per Node major (issue 49, replacing issue 28's): the plain invoke against raw call, ≤ 3.0× on Node 20 and
 * ≤ 2.5× on Node 24 and later. The sinked invoke is judged against its floor, the mandated work by hand with the
 * per-attempt timer and controller (`sinked-floor.ts`): reported, to hold, with no budget against raw call (NaN).
 */
export function invokePathBudgets(nodeMajor: number) {
  const modern = nodeMajor >= 24;
  return { plain: modern ? 2.5 : 3.0, sinked: Number.NaN, floor: Number.NaN, overFloor: Number.NaN, heap: 1.5, wall: 1.5 };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;

export function stat(subjects: number[], baselines: number[]): RatioStat {
  const ratios = subjects.map((s, i) => s / baselines[i]!).sort((a, b) => a - b);
  return { median: median(ratios), min: quantile(ratios, 0.25), max: quantile(ratios, 0.75), subject: median(subjects), baseline: median(baselines) };
}

/** Runs `subject` and `baseline` once per round in alternating order; returns each side's samples. */
export async function paired(subject: () => Promise<number>, baseline: () => Promise<number>, rounds: number): Promise<[number[], number[]]> {
  const s: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      b.push(await baseline());
      s.push(await subject());
    } else {
      s.push(await subject());
      b.push(await baseline());
    }
  }
  return [s, b];
}

/** A gate every parked handler awaits, so all N calls are inside their handler at once. */
function gated() {
  let entered = 0;
  let open!: () => void;
  let gate = new Promise<void>((r) => (open = r));
  const park = async () => {
    entered++;
    await gate;
  };
  const reset = () => {
    entered = 0;
    gate = new Promise<void>((r) => (open = r));
  };
  return { park, reset, release: () => open(), entered: () => entered };
}

/**
 * Retained heap per in-flight call: N calls started and parked inside their handler, a full GC, the heap minus a
 * forced-GC baseline, over N. What stays is what each call in flight holds, not the garbage it made getting there.
 */
async function heapPerInFlight(start: () => Promise<unknown>, gate: ReturnType<typeof gated>, n: number): Promise<number> {
  gate.reset();
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const pending = Array.from({ length: n }, start);
  while (gate.entered() < n) await new Promise((r) => setImmediate(r));
  gc();
  gc();
  const held = process.memoryUsage().heapUsed - before;
  gate.release();
  await Promise.all(pending);
  return held / n;
}

export async function invokePathCost(options: { rounds: number; calls: number; concurrent: number }): Promise<InvokePathRow[]> {
  const budgets = invokePathBudgets(Number(process.versions.node.split(".")[0]));
  const plain = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ trivial }) }) });
  const policies = ["a", "b", "c"].map((name) => definePolicy(name, () => allow()));
  const sink = async (_event: AgentAuditEvent) => {};
  const sinked = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ trivial }), policies }), audit: sink });
  const invokeOptions = { actor, context: {} };
  // Many short paired samples rather than a few long ones: a load spike on a shared machine then spoils one pair.
  const chunk = Math.max(500, Math.round(options.calls / 5));
  const pairs = options.rounds * 4;
  const rawCall = () => cpuSequential(() => call(raw, input, { context: {} }), chunk);
  // Warm both paths before the first timed round, so neither side pays for optimisation in round one.
  await rawCall();
  await cpuSequential(() => plain.invoke("trivial", input, invokeOptions), options.calls);
  await cpuSequential(() => sinked.invoke("trivial", input, invokeOptions), options.calls);
  const [plainS, plainB] = await paired(() => cpuSequential(() => plain.invoke("trivial", input, invokeOptions), chunk), rawCall, pairs);
  const [sinkedS, sinkedB] = await paired(() => cpuSequential(() => sinked.invoke("trivial", input, invokeOptions), chunk), rawCall, pairs);
  const floor = sinkedFloor(sink, policies.map(() => () => ({ kind: "allow" })));
  await cpuSequential(() => floor(input), options.calls);
  const [floorS, floorB] = await paired(() => cpuSequential(() => floor(input), chunk), rawCall, pairs);
  // The sinked invoke against its floor directly, paired the same way.
  const [overS, overB] = await paired(() => cpuSequential(() => sinked.invoke("trivial", input, invokeOptions), chunk), () => cpuSequential(() => floor(input), chunk), pairs);

  const n = options.concurrent;
  const gate = gated();
  const parkedGoverned = trivialBuilder.handler(async ({ input: i }) => {
    await gate.park();
    return { id: i.id };
  });
  const parkedRaw = rawBuilder.handler(async ({ input: i }) => {
    await gate.park();
    return { id: i.id };
  });
  const parkedRuntime = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ parked: parkedGoverned }) }) });
  const heapRounds = Math.max(3, Math.ceil(options.rounds / 3));
  const [heapS, heapB] = await paired(
    () => heapPerInFlight(() => parkedRuntime.invoke("parked", input, invokeOptions), gate, n),
    () => heapPerInFlight(() => call(parkedRaw, input, { context: {} }), gate, n),
    heapRounds,
  );

  const yielding = trivialBuilder.handler(async ({ input: i }) => {
    await new Promise((r) => setImmediate(r));
    return { id: i.id };
  });
  const rawYielding = rawBuilder.handler(async ({ input: i }) => {
    await new Promise((r) => setImmediate(r));
    return { id: i.id };
  });
  const yieldingRuntime = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ yielding }) }) });
  const burst = async (start: () => Promise<unknown>) => {
    gc();
    const t0 = cpuNs();
    await Promise.all(Array.from({ length: n }, start));
    return cpuNs() - t0;
  };
  const [wallS, wallB] = await paired(
    () => burst(() => yieldingRuntime.invoke("yielding", input, invokeOptions)),
    () => burst(() => call(rawYielding, input, { context: {} })),
    Math.max(5, Math.ceil(options.rounds / 2)),
  );

  const k = (n / 1000).toFixed(0);
  return [
    { key: "invokePlain", path: "invoke, no policies, no sink", unit: "ns", stat: stat(plainS, plainB), budget: budgets.plain },
    { key: "invokeSinked", path: "invoke, 3 sync policies + async sink", unit: "ns", stat: stat(sinkedS, sinkedB), budget: budgets.sinked },
    { key: "sinkedFloor", path: "its floor: the mandated work by hand, no pipeline", unit: "ns", stat: stat(floorS, floorB), budget: budgets.floor },
    { key: "sinkedOverFloor", path: "sinked invoke vs its floor", unit: "ns", stat: stat(overS, overB), budget: budgets.overFloor },
    { key: "heapInFlight", path: `heap per in-flight invoke (${k} 000 concurrent)`, unit: "bytes", stat: stat(heapS, heapB), budget: budgets.heap },
    { key: "concurrentWall", path: `${k} 000 concurrent invokes, wall`, unit: "ns", stat: stat(wallS, wallB), budget: budgets.wall },
  ];
}
