import { generateKeyPairSync, verify } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { z } from "zod";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance, verifyAuditTrail, type AgentAuditEvent } from "@orpc-agent/core";
import { AUDIT_CHAIN_DDL, AUDIT_DDL, createPgAuditSink, readPgAuditTrail, type PgQuery } from "../../src/index.js";
import { rowsOf } from "../support/audit-events.js";
import { ap } from "../support/orpc.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";

// ADR-025: the sink stores chained events and signs checkpoints that only ever cover stored rows.
let db: PGlite;
let query: PgQuery;
const keys = generateKeyPairSync("ed25519");
const privateKey = keys.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
const verifySignature = (payload: string, signature: string, keyId: string) =>
  keyId === "k1" ? verify(null, Buffer.from(payload), keys.publicKey, Buffer.from(signature, "base64")) : ("unknown-key" as const);

beforeAll(async () => {
  db = await createPglite();
  await db.exec(AUDIT_DDL);
  await db.exec(AUDIT_CHAIN_DDL);
  query = pgliteQuery(db);
});
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await db.exec("truncate orpc_agent_audit_events; truncate orpc_agent_audit_events_checkpoints");
});

const governance = defineGovernance({
  registry: createCapabilityRegistry({
    orders: {
      get: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: { description: "Read an order.", expose: { direct: true }, sideEffect: "read", risk: "low" } })
        .handler(async ({ input }) => ({ orderId: input.orderId })),
    },
  }),
});
const actor = { id: "user_dana", kind: "user" } as const;

async function run(sinkQuery: PgQuery, calls: number, options: { everyEvents?: number; batch?: boolean; turnEach?: boolean } = {}) {
  const sink = createPgAuditSink({
    query: sinkQuery,
    ...(options.batch ? { batch: { size: 7, flushMs: 5 } } : {}),
    checkpoint: { privateKey, keyId: "k1", everyEvents: options.everyEvents ?? 1000, onError: () => {} },
  });
  const runtime = createAgentRuntime({ governance, audit: { sinks: [sink], chain: true, onSinkError: () => {} } });
  const results = [];
  for (let i = 0; i < calls; i++) {
    results.push(await runtime.invoke("orders.get", { orderId: `o${i}` }, { actor, context: {} }));
    // A turn between calls lets the group commit set off a statement per call, rather than one for all of them.
    if (options.turnEach) await new Promise((resolve) => setImmediate(resolve));
  }
  await runtime.drainAudit().catch(() => {});
  await sink.close();
  return results;
}

describe("Postgres audit sink: hash chain and checkpoints (ADR-025)", () => {
  it("stores the chain and signs an opening, periodic and closing checkpoint that verify", async () => {
    const results = await run(query, 10, { everyEvents: 8, batch: true });
    const trail = await readPgAuditTrail({ query });
    expect(trail.events).toHaveLength(30);
    expect(trail.unchained).toBe(0);
    // Opening at 0, one whenever 8 more events are stored (a batch can settle several at once), closing at 30.
    const seqs = trail.checkpoints.map((cp) => cp.seq);
    expect(seqs[0]).toBe(0);
    expect(seqs.at(-1)).toBe(30);
    expect(seqs.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < seqs.length - 1; i++) expect(seqs[i]! - seqs[i - 1]!).toBeGreaterThanOrEqual(8);
    expect(verifyAuditTrail({ ...trail, verifySignature })).toMatchObject({ intact: true, unsignedTail: 0, findings: [] });
    const receipt = (results[3] as { receiptId: string }).receiptId;
    const { rows } = await db.query<{ type: string; execution_id: string }>("select type, execution_id from orpc_agent_audit_events where receipt_id = $1", [receipt]);
    expect(rows).toEqual([{ type: "capability.completed", execution_id: results[3]!.executionId }]);
  });

  it("declares the rows of a failed insert lost in the next checkpoint, so the trail still verifies without them", async () => {
    let calls = 0;
    let failedRows = 0;
    const flaky: PgQuery = (sql, params) => {
      if (sql.startsWith("insert into orpc_agent_audit_events (") && ++calls === 3) {
        failedRows = rowsOf(sql);
        return Promise.reject(new Error("connection reset"));
      }
      return query(sql, params);
    };
    await run(flaky, 4, { turnEach: true });
    // Group commit may carry several events in the failed statement: every one of them is declared lost.
    expect(failedRows).toBeGreaterThanOrEqual(1);
    const trail = await readPgAuditTrail({ query });
    expect(trail.events).toHaveLength(12 - failedRows);
    expect(trail.checkpoints.at(-1)!.lost).toHaveLength(failedRows);
    expect(verifyAuditTrail({ ...trail, verifySignature })).toMatchObject({ intact: true, declaredLost: failedRows });
  });

  it("never signs past a row still being written", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    const slow: PgQuery = async (sql, params) => {
      if (!held && sql.startsWith("insert into orpc_agent_audit_events (") && params.includes("capability.started")) {
        held = true;
        await gate;
      }
      return query(sql, params);
    };
    const sink = createPgAuditSink({ query: slow, checkpoint: { privateKey, keyId: "k1", everyEvents: 1 } });
    const runtime = createAgentRuntime({ governance, audit: { sinks: [sink], chain: true } });
    await runtime.invoke("orders.get", { orderId: "o1" }, { actor, context: {} });
    const signing = sink.checkpoint();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { rows } = await db.query<{ seq: string }>("select seq::text as seq from orpc_agent_audit_events_checkpoints order by seq");
    // The statement carrying seq 2 (started) is held, so nothing past seq 1 is signed yet.
    expect(rows.map((row) => Number(row.seq)).every((seq) => seq <= 1)).toBe(true);
    release();
    await signing;
    await sink.close();
    const trail = await readPgAuditTrail({ query });
    expect(trail.checkpoints.at(-1)!.seq).toBe(3);
    expect(verifyAuditTrail({ ...trail, verifySignature }).intact).toBe(true);
  });

  it("writes a full chained batch of 6553 events in two statements under the bind-parameter limit", async () => {
    const statements: string[] = [];
    const recording: PgQuery = (sql, params) => {
      statements.push(sql);
      return query(sql, params);
    };
    const sink = createPgAuditSink({ query: recording, batch: { size: 6553, flushMs: 60_000 } });
    const events: AgentAuditEvent[] = [];
    const runtime = createAgentRuntime({ governance, audit: { sinks: [(event) => void events.push(event)], chain: true } });
    while (events.length < 6553) await runtime.describe("direct", { actor, context: {} });
    await Promise.all(events.slice(0, 6553).map((event) => sink(event)));
    expect(statements.filter((sql) => sql.startsWith("insert"))).toHaveLength(2);
    const trail = await readPgAuditTrail({ query });
    expect(trail.events).toHaveLength(6553);
    expect(verifyAuditTrail({ events: trail.events, checkpoints: [] })).toMatchObject({ intact: true });
  });

  it("refuses invalid checkpoint options at construction, touching no database", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey;
    const noQuery: PgQuery = () => Promise.reject(new Error("touched"));
    for (const checkpoint of [
      { privateKey, keyId: "" },
      { privateKey, keyId: "has space" },
      { privateKey: "not a pem", keyId: "k1" },
      { privateKey: rsa, keyId: "k1" },
      { privateKey: keys.publicKey, keyId: "k1" },
      { privateKey, keyId: "k1", everyEvents: 0 },
      { privateKey, keyId: "k1", everyMs: Number.NaN },
      { privateKey, keyId: "k1", table: "bad name" },
    ]) {
      expect(() => createPgAuditSink({ query: noQuery, checkpoint: checkpoint as never })).toThrow(TypeError);
    }
  });

  it("AUDIT_CHAIN_DDL is additive: re-applied, and split into statements over a table of an earlier release, it keeps the rows", async () => {
    await db.exec(AUDIT_CHAIN_DDL);
    await db.exec("create schema legacy");
    const { auditDdl } = await import("../../src/ddl.js");
    await db.exec(auditDdl("legacy.audit"));
    await db.query("insert into legacy.audit (type, at, surface, actor_id, actor_kind, data) values ('capability.requested', now(), 'direct', 'u', 'user', '{}')");
    const { auditChainDdl } = await import("../../src/audit/chain-ddl.js");
    const statements = auditChainDdl("legacy.audit").split(";").map((statement) => statement.trim()).filter(Boolean);
    expect(statements.length).toBe(9);
    for (const statement of statements) await query(statement, []);
    const trail = await readPgAuditTrail({ query, table: "legacy.audit" });
    expect(trail).toMatchObject({ events: [], checkpoints: [], unchained: 1 });
    await db.exec("drop schema legacy cascade");
  });

  it("keeps audit-before-effect under strict mode: the procedure finds its chained started row", async () => {
    const seen: { seq: string | null; hash: string | null }[] = [];
    const strictGovernance = defineGovernance({
      registry: createCapabilityRegistry({
        orders: {
          ship: ap
            .input(z.object({ orderId: z.string() }))
            .meta({ agent: { description: "Ship an order.", expose: { direct: true }, sideEffect: "write", risk: "medium" } })
            .handler(async ({ context }) => {
              const { rows } = await db.query<{ seq: string | null; hash: string | null }>(
                "select seq::text as seq, hash from orpc_agent_audit_events where type = 'capability.started' and execution_id = $1",
                [(context as { agent?: { executionId: string } }).agent?.executionId],
              );
              seen.push(...rows);
              return { shipped: true };
            }),
        },
      }),
    });
    const sink = createPgAuditSink({ query, batch: { size: 50, flushMs: 60_000 }, checkpoint: { privateKey, keyId: "k1" } });
    const runtime = createAgentRuntime({ governance: strictGovernance, audit: { sinks: [sink], strict: true, chain: true } });
    const result = await runtime.invoke("orders.ship", { orderId: "o1" }, { actor, context: {} });
    expect(result.status).toBe("completed");
    expect(seen).toEqual([{ seq: "2", hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    await sink.flush(); // the buffer would otherwise wait flushMs (60 s), past drainAudit's deadline
    await runtime.drainAudit();
    await sink.close();
    expect(verifyAuditTrail({ ...(await readPgAuditTrail({ query })), verifySignature })).toMatchObject({ intact: true, unsignedTail: 0 });
  });

  it("leaves unchained events in the original 10-column statement", async () => {
    const statements: string[] = [];
    const sink = createPgAuditSink({ query: (sql, params) => (statements.push(sql), query(sql, params)) });
    const runtime = createAgentRuntime({ governance, audit: sink });
    await runtime.invoke("orders.get", { orderId: "o1" }, { actor, context: {} });
    await runtime.drainAudit();
    expect(statements.every((sql) => !sql.includes("chain_id"))).toBe(true);
    expect((await readPgAuditTrail({ query })).unchained).toBe(3);
  });
});
