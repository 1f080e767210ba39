// The database section of `pnpm bench` (issue 49), on the embedded server or TEST_DATABASE_URL (pg-server.ts):
// PostgreSQL round trips per flow, counted at the `PgQuery` seam (pg-round-trips.ts), and MCP HTTP throughput at
// 100 concurrent clients with and without strict PostgreSQL audit against a hand-written server (mcp-throughput.ts).
// Ratios and counts are reported; the targets are printed beside them, none is a test.
//   node --import tsx bench/database.ts   (from the repository root; `pnpm bench -- --database` runs it on both Nodes)
import { mcpThroughput } from "./mcp-throughput.js";
import { createBenchSchema } from "./pg-database.js";
import { pgRoundTrips, type RoundTripRow } from "./pg-round-trips.js";
import { openBenchDatabase } from "./pg-server.js";

export type DatabaseSection = {
  server: string;
  roundTrips: RoundTripRow[];
  mcp: Awaited<ReturnType<typeof mcpThroughput>>;
};

export async function databaseSection(options: { quick: boolean }): Promise<DatabaseSection> {
  const database = await openBenchDatabase();
  try {
    const db = await createBenchSchema(database.url);
    try {
      const roundTrips = await pgRoundTrips(db, { calls: options.quick ? 1_000 : 3_000, flows: options.quick ? 20 : 50, url: database.url });
      await db.truncate();
      const mcp = await mcpThroughput(db, { rounds: options.quick ? 3 : 5, calls: options.quick ? 1_000 : 3_000, clients: 100 });
      const version = await db.pool().query<{ server_version: string }>("show server_version");
      return { server: `${database.label}, PostgreSQL ${version.rows[0]!.server_version}`, roundTrips, mcp };
    } finally {
      await db.drop();
    }
  } finally {
    await database.close();
  }
}

/** The section's rows for the bench table, and its keys for the JSON summary. */
export function databaseRows(section: DatabaseSection) {
  const rows: { path: string; subject: string; baseline: string; ratio: number; spread?: string; budget: string }[] = [];
  const json: Record<string, number | string> = { pgServer: section.server };
  for (const row of section.roundTrips) {
    const target = row.key === "pgStrict100" ? "≤ 1 / call" : "report";
    rows.push({ path: `pg round trips: ${row.flow}`, subject: row.perFlow.toFixed(2), baseline: row.detail, ratio: NaN, budget: target });
    json[`${row.key}RoundTrips`] = row.perFlow;
  }
  const { perSec, overNoAudit, statementsPerCall, serverCpuUs, pgCpuUs } = section.mcp;
  const rate = (n: number) => `${Math.round(n)} req/s`;
  const spread = (s: keyof typeof overNoAudit) => `${overNoAudit[s].min.toFixed(2)}–${overNoAudit[s].max.toFixed(2)}`;
  const versusNoAudit = (name: string, s: keyof typeof overNoAudit, budget: string) =>
    rows.push({ path: `mcp http ×100 clients: ${name}`, subject: rate(perSec[s]), baseline: rate(perSec.noAudit), ratio: overNoAudit[s].median, spread: spread(s), budget });
  versusNoAudit("strict pg audit vs no audit", "strict", "≥ 0.8×");
  versusNoAudit("batched pg audit vs no audit", "batched", "report");
  versusNoAudit("hand-written vs no audit", "handWritten", "report");
  const us = (n: number) => `${n.toFixed(0)} µs`;
  for (const [name, s] of [["strict pg audit", "strict"], ["batched pg audit", "batched"], ["hand-written", "handWritten"]] as const) {
    rows.push({ path: `mcp http server CPU per call: ${name} vs no audit`, subject: us(serverCpuUs[s]), baseline: us(serverCpuUs.noAudit), ratio: serverCpuUs[s] / serverCpuUs.noAudit, spread: "", budget: "report" });
  }
  if (pgCpuUs.strict !== undefined && pgCpuUs.batched !== undefined) {
    rows.push({ path: "mcp http PostgreSQL CPU per call: strict vs batched", subject: us(pgCpuUs.strict), baseline: us(pgCpuUs.batched), ratio: pgCpuUs.strict / pgCpuUs.batched, spread: "", budget: "report" });
  }
  rows.push({ path: "mcp http ×100 clients: strict pg round trips", subject: `${statementsPerCall.strict.toFixed(2)} / call`, baseline: `${statementsPerCall.batched.toFixed(2)} batched`, ratio: NaN, budget: "≤ 1 / call" });
  Object.assign(json, {
    mcpNoAuditPerSec: perSec.noAudit,
    mcpStrictPgPerSec: perSec.strict,
    mcpBatchedPgPerSec: perSec.batched,
    mcpHandWrittenPerSec: perSec.handWritten,
    mcpStrictPgRatio: overNoAudit.strict.median,
    mcpBatchedPgRatio: overNoAudit.batched.median,
    mcpHandWrittenRatio: overNoAudit.handWritten.median,
    mcpStrictPgVsHandRatio: overNoAudit.strict.median / overNoAudit.handWritten.median,
    mcpNoAuditVsHandRatio: 1 / overNoAudit.handWritten.median,
    mcpStrictPgRoundTrips: statementsPerCall.strict,
    mcpNoAuditCpuUs: serverCpuUs.noAudit,
    mcpStrictPgCpuUs: serverCpuUs.strict,
    mcpBatchedPgCpuUs: serverCpuUs.batched,
    mcpHandWrittenCpuUs: serverCpuUs.handWritten,
    ...(pgCpuUs.strict === undefined ? {} : { mcpStrictPgBackendCpuUs: pgCpuUs.strict }),
    ...(pgCpuUs.batched === undefined ? {} : { mcpBatchedPgBackendCpuUs: pgCpuUs.batched }),
    mcpBatchedPgRoundTrips: statementsPerCall.batched,
  });
  return { rows, json };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const section = await databaseSection({ quick: process.argv.includes("--quick") });
  console.log(`database: ${section.server}, node ${process.version}`);
  for (const row of databaseRows(section).rows) {
    const ratio = Number.isNaN(row.ratio) ? "" : `${row.ratio.toFixed(2)}×${row.spread ? ` (${row.spread})` : ""}`;
    console.log(`${row.path.padEnd(64)} ${row.subject.padStart(12)}  ${row.baseline.padEnd(60)} ${ratio.padEnd(20)} ${row.budget}`);
  }
}
