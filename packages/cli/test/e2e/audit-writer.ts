// One writer process of the audit-verify end-to-end test: a chained runtime over the Postgres sink, signing
// checkpoints, invoking a capability `calls` times (a few at once, so two writers interleave in one table).
// Run with: node --conditions=@orpc-agent/source --import tsx audit-writer.ts <url> <table> <calls> <key.pem> <keyId> [<barrier dir> <writers>]
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { os } from "@orpc/server";
import pg from "pg";
import { z } from "zod";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createPgAuditSink } from "../../../postgres/src/index.js";

const [url, table, callsText, keyPath, keyId, barrier, writersText] = process.argv.slice(2) as [string, string, string, string, string, string?, string?];
const pool = new pg.Pool({ connectionString: url, max: 4 });
const sink = createPgAuditSink({
  query: (sql, params) => pool.query(sql, params),
  table,
  batch: { size: 200, flushMs: 20 },
  checkpoint: { privateKey: readFileSync(keyPath, "utf8"), keyId, everyEvents: 500 },
});
const base = agentProcedure(os);
const governance = defineGovernance({
  registry: createCapabilityRegistry({
    orders: {
      get: base
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: { description: "Read an order.", expose: { direct: true }, sideEffect: "read", risk: "low" } })
        .handler(async ({ input }) => ({ orderId: input.orderId })),
    },
  }),
});
const runtime = createAgentRuntime({ governance, audit: { sinks: [sink], chain: true } });

/** Waits until every writer has reached `stage`: a file per writer and stage in the barrier directory. */
async function meet(stage: string): Promise<void> {
  if (barrier === undefined) return;
  writeFileSync(join(barrier, `${stage}-${process.pid}`), "");
  while (readdirSync(barrier).filter((name) => name.startsWith(`${stage}-`)).length < Number(writersText)) await sleep(10);
}

// Writers start together once each is loaded: one process's start-up can otherwise outlast the other's whole run.
await meet("start");

const calls = Number(callsText);
const half = Math.floor(calls / 2);
const receipts: string[] = [];
for (let done = 0; done < calls; ) {
  // Halfway, each writer's first half is stored before any writer goes on, so the chains interleave in the table
  // however the scheduler runs the two processes.
  if (done === half) {
    await runtime.drainAudit({ timeoutMs: 30_000 });
    await sink.flush();
    await meet("half");
  }
  const group = Math.min(8, (done < half ? half : calls) - done);
  const results = await Promise.all(
    Array.from({ length: group }, (_, i) => runtime.invoke("orders.get", { orderId: `o_${done + i}` }, { actor: { id: `user_${process.pid}`, kind: "user" }, context: {} })),
  );
  for (const result of results) {
    if (result.status !== "completed" || result.receiptId === undefined) throw new Error(`unexpected result ${result.status}`);
    receipts.push(result.receiptId);
  }
  done += group;
}
await runtime.drainAudit({ timeoutMs: 30_000 });
await sink.close();
await pool.end();
process.stdout.write(`done ${receipts.length} ${receipts[receipts.length - 1]}\n`);
