// `pnpm bench`: governance cost as ratios against raw oRPC `call` in one process (docs/architecture/spec/core.md#core-16).
import { call } from "@orpc/server";
import { z } from "zod";
import {
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  type AgentAuditEvent,
} from "@orpc-agent/core";
import { interleave, median, timeSequential, timeSync } from "./harness.js";
import { remoteCost } from "./remote.js";
import { invokePathCost, type InvokePathRow } from "./invoke-path.js";
import { governanceWithDiscoveryPolicy, makeDefs, makeSchema, raw, rawBuilder, trivial, trivialBuilder } from "./fixtures.js";
import { otelCost } from "./otel.js";
import { aiSdkCost } from "./ai-sdk.js";
import { mcpCost } from "./mcp.js";
import { mcpListServerWork } from "./mcp-list-server-work.js";
import { mcpV2Cost } from "./mcp-v2.js";
import { pgSinkCost } from "./pg-sink.js";
import { auditChainCost } from "./audit-chain.js";
import { approvalSealCost } from "./approval-seal.js";
import { grantCoveredCost } from "./grant-covered.js";
import { databaseRows, databaseSection } from "./database.js";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 15;
const CALLS = quick ? 2_000 : 10_000;
const actor = { id: "bench", kind: "service" as const };
const rows: { path: string; subject: string; baseline: string; ratio: number; spread?: string; budget: string }[] = [];
const json: Record<string, number | string> = {};
// Setup garbage (fresh procedures and schemas each round) is collected before timing, so neither side pays for it.
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();
const fmt = (ns: number) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(2)} µs`);

async function describeCost() {
  for (const n of [10, 100, 300]) {
    const runtime = createAgentRuntime({ governance: governanceWithDiscoveryPolicy(n) });
    const iterations = quick ? 50 : 200;
    const m = await interleave(
      {
        all: () => timeSequential(() => runtime.describe("aiSdk", { actor, context: {} }), iterations),
        scoped: () => timeSequential(() => runtime.describe("aiSdk", { actor, context: {}, scope: { tags: ["scoped"] } }), iterations),
      },
      ROUNDS,
    );
    const share = Math.ceil(n / 3) / n;
    rows.push({ path: `describe at ${n}`, subject: fmt(m.all!), baseline: "—", ratio: NaN, budget: n === 300 ? "≤ 1 ms" : "linear" });
    rows.push({ path: `describe at ${n}, scoped (${(share * 100).toFixed(0)}% share)`, subject: fmt(m.scoped!), baseline: fmt(m.all!), ratio: m.scoped! / m.all!, budget: `≈ ${share.toFixed(2)}×` });
    json[`describe${n}Ns`] = m.all!;
    json[`describe${n}ScopedNs`] = m.scoped!;
  }
}

async function registryCost() {
  const N = 300;
  const m = await interleave(
    {
      registry: () => {
        const defs = makeDefs(N);
        collectGarbage();
        const start = process.hrtime.bigint();
        createCapabilityRegistry(defs);
        return Number(process.hrtime.bigint() - start);
      },
      toJSONSchema: () => {
        const schemas = Array.from({ length: N }, (_, i) => makeSchema(i));
        collectGarbage();
        return timeSync(() => {
          for (const s of schemas) z.toJSONSchema(s, { io: "input" });
        }, 1);
      },
    },
    ROUNDS,
  );
  rows.push({ path: "createCapabilityRegistry at 300", subject: fmt(m.registry!), baseline: fmt(m.toJSONSchema!), ratio: m.registry! / m.toJSONSchema!, budget: "≤ 1.15×" });
  Object.assign(json, { registry300Ns: m.registry, toJsonSchema300Ns: m.toJSONSchema, registryRatio: m.registry! / m.toJSONSchema! });
}

async function invokePath() {
  const measured = await invokePathCost({ rounds: ROUNDS, calls: CALLS, concurrent: 10_000 });
  const show = (row: InvokePathRow, v: number) => (row.unit === "bytes" ? `${(v / 1024).toFixed(2)} KB` : fmt(v));
  for (const row of measured) {
    const { stat } = row;
    rows.push({
      path: row.path,
      subject: show(row, stat.subject),
      baseline: show(row, stat.baseline),
      ratio: stat.median,
      spread: `${stat.min.toFixed(2)}–${stat.max.toFixed(2)}`,
      budget: Number.isNaN(row.budget) ? "report" : `≤ ${row.budget.toFixed(1)}×${stat.median <= row.budget ? "" : " OVER"}`,
    });
    Object.assign(json, { [`${row.key}Subject`]: stat.subject, [`${row.key}Baseline`]: stat.baseline, [`${row.key}Ratio`]: stat.median, [`${row.key}Min`]: stat.min, [`${row.key}Max`]: stat.max, [`${row.key}Budget`]: row.budget });
  }
}

// `--invoke-path`: issue 28's table alone (the governed call path against raw call), for quick iteration.
// `--database`: issue 49's database section alone.
const only = process.argv.includes("--invoke-path");
const databaseOnly = process.argv.includes("--database");
if (!databaseOnly) {
  if (!only) await registryCost();
  await invokePath();
  if (!only) await otherCosts();
}
if (!only) await databaseCost();

// Issue 49: PostgreSQL round trips per flow and MCP HTTP throughput with strict PostgreSQL audit (database.ts).
async function databaseCost() {
  const section = await databaseSection({ quick });
  const { rows: sectionRows, json: sectionJson } = databaseRows(section);
  rows.push(...sectionRows);
  Object.assign(json, sectionJson);
}

async function otherCosts() {
  {
    // ADR-025: hashing and linking three events per call, and one checkpoint signature per 1000 stored events.
    const { call: chain, signNs } = await auditChainCost({ rounds: ROUNDS, calls: CALLS });
    rows.push({ path: chain.path, subject: fmt(chain.subjectNs), baseline: fmt(chain.baselineNs), ratio: chain.ratio, budget: "report" });
    rows.push({ path: "audit chain: extra per governed call", subject: fmt(chain.extraNs), baseline: "—", ratio: NaN, budget: "report" });
    rows.push({ path: "audit checkpoint: Ed25519 sign (per 1000 events)", subject: fmt(signNs), baseline: "—", ratio: NaN, budget: "report" });
    Object.assign(json, { auditChainInvokeNs: chain.subjectNs, auditChainExtraNs: chain.extraNs, auditChainRatio: chain.ratio, auditCheckpointSignNs: signNs });
  }
  {
    // ADR-027: a request seal, a decision seal and their verification per approval round trip.
    const seal = await approvalSealCost({ rounds: ROUNDS, trips: quick ? 200 : 1_000 });
    rows.push({ path: seal.path, subject: fmt(seal.subjectNs), baseline: fmt(seal.baselineNs), ratio: seal.ratio, budget: "report" });
    rows.push({ path: "approval seal: extra per approval round trip", subject: fmt(seal.extraNs), baseline: "—", ratio: NaN, budget: "report" });
    Object.assign(json, { approvalSealTripNs: seal.subjectNs, approvalSealExtraNs: seal.extraNs, approvalSealRatio: seal.ratio });
  }
  {
    // Issue 45: a grant-covered call against the same capability ungated (≤ 1.3×), in memory, no sink; and that ungated
    // call against raw call. Capabilities without `grants` never look up grants: their cost is the invokePlain row.
    for (const row of await grantCoveredCost({ rounds: ROUNDS, calls: CALLS })) {
      const { stat } = row;
      const budget = Number.isNaN(row.budget) ? "report" : `≤ ${row.budget.toFixed(1)}×${stat.median <= row.budget ? "" : " OVER"}`;
      rows.push({ path: row.path, subject: fmt(stat.subject), baseline: fmt(stat.baseline), ratio: stat.median, spread: `${stat.min.toFixed(2)}–${stat.max.toFixed(2)}`, budget });
      Object.assign(json, { [`${row.key}Subject`]: stat.subject, [`${row.key}Baseline`]: stat.baseline, [`${row.key}Ratio`]: stat.median, [`${row.key}Min`]: stat.min, [`${row.key}Max`]: stat.max });
    }
  }
  await describeCost();
  // Baseline is invoke without tracing, not raw call; reported only (no docs/architecture/spec/core.md#core-16 budget).
  const [otelSdk, otelNoSdk] = await otelCost({ rounds: ROUNDS, calls: CALLS });
  for (const r of [otelSdk!, otelNoSdk!]) rows.push({ path: r.path, subject: fmt(r.subjectNs), baseline: fmt(r.baselineNs), ratio: r.ratio, budget: "report" });
  Object.assign(json, { otelInvokeNs: otelSdk!.subjectNs, otelBaselineNs: otelSdk!.baselineNs, otelRatio: otelSdk!.ratio, otelNoSdkNs: otelNoSdk!.subjectNs, otelNoSdkRatio: otelNoSdk!.ratio });

  // Remote: the baseline is a plain oRPC HTTP call of the same procedure, not raw call; reported only (no docs/architecture/spec/core.md#core-16 budget).
  const [remoteFresh, remoteReplayed] = await remoteCost({ rounds: ROUNDS, calls: quick ? 200 : 1_000 });
  for (const r of [remoteFresh!, remoteReplayed!]) rows.push({ path: r.path, subject: fmt(r.subjectNs), baseline: fmt(r.baselineNs), ratio: r.ratio, budget: "report" });
  Object.assign(json, { remoteInvokeNs: remoteFresh!.subjectNs, remotePlainHttpNs: remoteFresh!.baselineNs, remoteRatio: remoteFresh!.ratio, remoteReplayedNs: remoteReplayed!.subjectNs, remoteReplayedRatio: remoteReplayed!.ratio });

  // Adapters: each against the thing it wraps or replaces (describe; a hand-written McpServer).
  const [aiSdk, aiSdkOwn] = await aiSdkCost({ rounds: ROUNDS, iterations: quick ? 50 : 200 });
  rows.push({ path: aiSdk!.path, subject: fmt(aiSdk!.subjectNs), baseline: fmt(aiSdk!.baselineNs), ratio: aiSdk!.ratio, budget: "≤ 1.15×" });
  rows.push({ path: aiSdkOwn!.path, subject: fmt(aiSdkOwn!.subjectNs), baseline: fmt(aiSdkOwn!.baselineNs), ratio: aiSdkOwn!.ratio, budget: "report" });
  Object.assign(json, {
    aiSdkTools300Ns: aiSdk!.subjectNs,
    aiSdkDescribe300Ns: aiSdk!.baselineNs,
    aiSdkToolsRatio: aiSdk!.ratio,
    aiSdkDescribeShared300Ns: aiSdkOwn!.baselineNs,
    aiSdkToolsOwnRatio: aiSdkOwn!.ratio,
  });
  const [mcpCall, mcpList] = await mcpCost({ rounds: ROUNDS, calls: quick ? 500 : 2_000, lists: quick ? 20 : 100 });
  rows.push({ path: mcpCall!.path, subject: fmt(mcpCall!.subjectNs), baseline: fmt(mcpCall!.baselineNs), ratio: mcpCall!.ratio, budget: "≤ 1.25×" });
  rows.push({ path: mcpList!.path, subject: fmt(mcpList!.subjectNs), baseline: fmt(mcpList!.baselineNs), ratio: mcpList!.ratio, budget: "report" });
  Object.assign(json, { mcpCallNs: mcpCall!.subjectNs, mcpHandWrittenCallNs: mcpCall!.baselineNs, mcpCallRatio: mcpCall!.ratio, mcpList100Ns: mcpList!.subjectNs, mcpHandWrittenList100Ns: mcpList!.baselineNs, mcpListRatio: mcpList!.ratio });
  // The v2 endpoint (issue 23) against a hand-written v2 McpServer, over loopback HTTP, in both protocol eras.
  for (const r of await mcpV2Cost({ rounds: ROUNDS, calls: quick ? 50 : 200, lists: quick ? 10 : 40 })) {
    // Issue 49: tools/list is judged against the canned floor, no longer against the hand-written server.
    const budget = r.path === "tools/call" ? "≤ 1.25×" : r.path === "tools/list vs floor" ? "≤ 1.1×" : "report";
    const spread = r.spread === undefined ? {} : { spread: `${r.spread[0].toFixed(2)}–${r.spread[1].toFixed(2)}` };
    rows.push({ path: `mcp v2 ${r.path}, ${r.era}`, subject: fmt(r.subjectUs * 1e3), baseline: fmt(r.baselineUs * 1e3), ratio: r.ratio, budget, ...spread });
  }
  // The server's own share of those lists: ours against the floor, the client left out (issue 49); reported only.
  for (const { era, stat: st } of await mcpListServerWork({ rounds: quick ? 6 : ROUNDS * 2, lists: quick ? 20 : 60 })) {
    rows.push({ path: `mcp v2 tools/list server CPU vs floor, ${era}`, subject: fmt(st.subject), baseline: fmt(st.baseline), ratio: st.median, spread: `${st.min.toFixed(2)}–${st.max.toFixed(2)}`, budget: "report" });
  }

  // Postgres audit sink: events/s batched over written through (group commit); reported only.
  const rate = (perSec: number) => `${Math.round(perSec)} ev/s`;
  for (const r of await pgSinkCost({ rounds: ROUNDS, events: 2_000 })) {
    rows.push({ path: r.path, subject: rate(r.subjectPerSec), baseline: rate(r.baselinePerSec), ratio: r.ratio, budget: "report" });
    const key = r.path.endsWith("PGlite") ? "pglite" : "postgres";
    Object.assign(json, { [`${key}AuditBatchedPerSec`]: r.subjectPerSec, [`${key}AuditSinglePerSec`]: r.baselinePerSec, [`${key}AuditBatchRatio`]: r.ratio });
  }
}

console.log(`\noRPC Agent bench — node ${process.version}, ${quick ? "quick" : "full"} run, ${ROUNDS} interleaved rounds\n`);
const widths = [44, 12, 12, 8, 11, 10];
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ");
console.log(line(["path", "subject", "baseline", "ratio", "spread", "budget"]));
for (const r of rows) console.log(line([r.path, r.subject, r.baseline, Number.isNaN(r.ratio) ? "—" : `${r.ratio.toFixed(2)}×`, r.spread ?? "", r.budget]));
console.log(`\n${JSON.stringify({ bench: "orpc-agent", node: process.version, ...json })}`);
