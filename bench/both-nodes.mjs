// `pnpm bench`: the bench once on this machine's Node and once on Node 24 (installed as the CI legs install it,
// scripts/install-node.sh), then the governed invoke's table side by side with each Node's budgets. Arguments pass through
// (`--quick`, `--invoke-path`). Each run's last stdout line is its JSON summary.
import { execFileSync, spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const args = process.argv.slice(2);
const major = (version) => Number(version.replace(/^v/, "").split(".")[0]);
const install = (version) => execFileSync("sh", ["scripts/install-node.sh", version], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
const here = major(process.version);
// Two legs: this Node, and Node 24 (or Node 20 when this one already is 24).
const other = here === 24 ? install("20") : install("24");
const binaries = here === 24 ? [other, process.execPath] : [process.execPath, other];
const tsx = createRequire(import.meta.url).resolve("tsx/cli");

const summaries = [];
for (const node of binaries) {
  const run = spawnSync(node, [tsx, "--tsconfig", "bench/tsconfig.json", "--expose-gc", "bench/index.ts", ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  process.stdout.write(run.stdout);
  if (run.status !== 0) process.exit(run.status ?? 1);
  const last = run.stdout.trim().split("\n").at(-1);
  summaries.push(JSON.parse(last));
}

const heads = summaries.map((s) => `Node ${major(s.node)} (${s.node})`);
if (summaries.every((s) => s.invokePlainRatio !== undefined)) issue28Table();
if (summaries.every((s) => s.mcpStrictPgRatio !== undefined)) issue49Table();
if (summaries.every((s) => s.grantCoveredRatio !== undefined)) issue45Table();

// Issue 45: a call a standing grant covers, in memory, against the same capability ungated (bench/grant-covered.ts).
function issue45Table() {
  const cell = (key) => (s) => `${s[`${key}Ratio`].toFixed(2)}× (${s[`${key}Min`].toFixed(2)}–${s[`${key}Max`].toFixed(2)})`;
  const rows = [
    ["grant-covered invoke / ungated invoke (in memory, no sink)", cell("grantCovered"), "≤ 1.3×"],
    ["ungated invoke / raw call (same shape)", cell("ungatedWrite"), "report"],
    ["capability without grants: invoke, no policies, no sink / raw call", cell("invokePlain"), "as issue 28"],
  ];
  console.log(`\nIssue 45: standing grants — median of per-round ratios (p25–p75)\n`);
  console.log(`| path | ${heads.join(" | ")} | target |`);
  console.log(`|---|${heads.map(() => "---").join("|")}|---|`);
  for (const [label, show, target] of rows) console.log(`| ${label} | ${summaries.map(show).join(" | ")} | ${target} |`);
}

function issue28Table() {
  const rows = [
    ["invokePlain", "invoke, no policies, no sink"],
    ["invokeSinked", "invoke, 3 sync policies + async sink"],
    ["sinkedFloor", "its floor: the mandated work by hand, no pipeline (sinked-floor.ts)"],
    ["sinkedOverFloor", "sinked invoke vs its floor (issue 49: report, hold)"],
    ["heapInFlight", "heap per in-flight invoke (10 000 concurrent) vs raw"],
    ["concurrentWall", "10 000 concurrent invokes, wall (CPU time)"],
  ];
  const cell = (s, key) => {
    const ratio = s[`${key}Ratio`];
    const spread = `${s[`${key}Min`].toFixed(2)}–${s[`${key}Max`].toFixed(2)}`;
    const size = key === "heapInFlight" ? `, ${(s[`${key}Subject`] / 1024).toFixed(2)} KB` : "";
    // null (a reported row) compares as NaN: never over.
    const over = ratio > (s[`${key}Budget`] ?? Number.NaN) ? " OVER" : "";
    return `${ratio.toFixed(2)}× (${spread}${size})${over}`;
  };
  console.log(`\nIssue 28: governed invoke against raw oRPC call — median of per-round ratios (p25–p75)\n`);
  console.log(`| path | ${heads.join(" | ")} | budget |`);
  console.log(`|---|${heads.map(() => "---").join("|")}|---|`);
  // A reported row's budget is NaN, which the JSON summary carries as null.
  const limit = (b) => (b === null || Number.isNaN(b) ? "report" : `≤ ${b.toFixed(1)}×`);
  for (const [key, path] of rows) {
    const limits = summaries.map((s) => limit(s[`${key}Budget`]));
    const budget = new Set(limits).size === 1 ? limits[0] : limits.map((l, i) => `${l} on Node ${major(summaries[i].node)}`).join(", ");
    console.log(`| ${path} | ${summaries.map((s) => cell(s, key)).join(" | ")} | ${budget} |`);
  }
}

// Issue 49: PostgreSQL round trips and MCP HTTP throughput at 100 concurrent clients (bench/database.ts).
function issue49Table() {
  const trips = (key) => (s) => s[`${key}RoundTrips`].toFixed(2);
  const rate = (key) => (s) => `${Math.round(s[key])} req/s`;
  const ratio = (key) => (s) => `${s[key].toFixed(2)}×`;
  const us = (key) => (s) => `${s[key].toFixed(0)} µs`;
  const rows = [
    ["round trips per strict-audited call, 1 caller (default sink)", trips("pgStrict1"), "report"],
    ["round trips per strict-audited call, 100 concurrent callers (default sink)", trips("pgStrict100"), "≤ 1"],
    ["round trips per strict-audited call, 1 caller (batched sink)", trips("pgStrictBatched1"), "report"],
    ["round trips per strict-audited call, 100 concurrent callers (batched sink)", trips("pgStrictBatched100"), "report"],
    ["round trips per approval round trip (invoke, decide, resume; strict audit)", trips("pgApprovalTrip"), "report"],
    ["round trips per MCP call, strict PostgreSQL audit, 100 clients", (s) => s.mcpStrictPgRoundTrips.toFixed(2), "≤ 1"],
    ["MCP req/s, governed, no audit", rate("mcpNoAuditPerSec"), "—"],
    ["MCP req/s, governed, strict PostgreSQL audit", rate("mcpStrictPgPerSec"), "—"],
    ["MCP req/s, governed, strict audit on the batched sink", rate("mcpBatchedPgPerSec"), "—"],
    ["MCP req/s, hand-written MCP SDK v2 server", rate("mcpHandWrittenPerSec"), "—"],
    ["server CPU per call, no audit", us("mcpNoAuditCpuUs"), "—"],
    ["server CPU per call, strict PostgreSQL audit", us("mcpStrictPgCpuUs"), "—"],
    ["server CPU per call, strict audit on the batched sink", us("mcpBatchedPgCpuUs"), "—"],
    ["server CPU per call, hand-written", us("mcpHandWrittenCpuUs"), "—"],
    ["PostgreSQL backend CPU per call, strict audit (default / batched sink)", (s) => (s.mcpStrictPgBackendCpuUs === undefined ? "—" : `${s.mcpStrictPgBackendCpuUs.toFixed(0)} / ${s.mcpBatchedPgBackendCpuUs.toFixed(0)} µs`), "—"],
    ["strict PostgreSQL audit / no audit", ratio("mcpStrictPgRatio"), "≥ 0.8×"],
    ["batched sink / no audit", ratio("mcpBatchedPgRatio"), "report"],
    ["no audit / hand-written", ratio("mcpNoAuditVsHandRatio"), "report"],
    ["strict PostgreSQL audit / hand-written", ratio("mcpStrictPgVsHandRatio"), "report"],
  ];
  console.log(`\nIssue 49: PostgreSQL round trips (counted at the PgQuery seam) and MCP HTTP throughput, 100 concurrent 2025-era clients (${summaries[0].pgServer})\n`);
  console.log(`| measure | ${heads.join(" | ")} | target |`);
  console.log(`|---|${heads.map(() => "---").join("|")}|---|`);
  for (const [label, cell, target] of rows) console.log(`| ${label} | ${summaries.map(cell).join(" | ")} | ${target} |`);
}
