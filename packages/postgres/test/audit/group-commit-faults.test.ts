import { generateKeyPairSync, verify } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditTrail, type ExecutionResult } from "@orpc-agent/core";
import { auditChainDdl } from "../../src/audit/chain-ddl.js";
import { readPgAuditTrail, type PgQuery } from "../../src/index.js";
import { startEmbeddedServer, type EmbeddedServer } from "../support/embedded-server.js";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER, TEST_DATABASE_URL, applyAuditDdl } from "../support/real-server.js";
import { logAuditInserts, statementOfStarted, type LoggedInsert } from "../support/statement-log.js";
import { auditBeforeEffectBreaks, strictAuditedApp } from "../support/strict-audited-app.js";
import { blockedInsert, holdTableLock } from "../support/table-lock.js";

// Group commit under faults (docs/architecture/spec/postgres.md#postgres-7-1), strict mode on the default sink: whatever
// happens to a statement, every call either has its `capability.started` row and ran, or has none and did not run,
// and a failed statement fails exactly the calls whose started rows it carried.

const keys = generateKeyPairSync("ed25519");
const checkpoint = { privateKey: keys.privateKey.export({ type: "pkcs8", format: "pem" }) as string, keyId: "k1", onError: () => {} };
const verifySignature = (payload: string, signature: string, keyId: string) =>
  keyId === "k1" ? verify(null, Buffer.from(payload), keys.publicKey, Buffer.from(signature, "base64")) : ("unknown-key" as const);

/** Each call failed exactly when the statement carrying its started row failed. */
function expectFailedExactlyWithTheirStatement(results: ExecutionResult[], inserts: LoggedInsert[]) {
  for (const result of results) {
    const statement = statementOfStarted(inserts, result.executionId);
    expect(statement, `the started row of ${result.executionId} was sent`).toBeDefined();
    expect({ id: result.executionId, failed: result.status === "failed" }).toEqual({ id: result.executionId, failed: statement!.outcome === "rejected" });
  }
}

const waves = (call: () => Promise<ExecutionResult>, n: number) => Array.from({ length: n }, () => call());

describe(`group commit faults on a ${REAL_SERVER}`, () => {
  let admin: pg.Pool;
  let schema: string;
  beforeAll(async () => {
    admin = createTestPool({ max: 4 });
    schema = await createTestSchema(admin, "gc_faults");
  });
  afterAll(async () => {
    await dropTestSchema(admin, schema);
    await admin.end();
  });

  it("connections killed mid-statement (pg_terminate_backend): the calls it carried fail and never run, later calls run, and the chain still verifies", async () => {
    const table = `${schema}.killed`;
    await applyAuditDdl((sql) => admin.query(sql), table);
    await admin.query(auditChainDdl(table));
    const applicationName = `gc_killed_${process.pid}`;
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 10, application_name: applicationName });
    pool.on("error", () => {});
    try {
      const log = logAuditInserts((sql, params) => pool.query(sql, params));
      const app = strictAuditedApp({ query: log.query, table, chain: true, checkpoint });
      const lock = await holdTableLock(admin, table);
      const calls = waves(app.call, 10);
      const first = await blockedInsert(admin, table);
      // These queue behind the statement in flight.
      calls.push(...waves(app.call, 10));
      // Every connection of the sink's pool, the one mid-statement included.
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1", [applicationName]);
      // The queue goes in the next statement, on a fresh connection, which waits on the lock too.
      await blockedInsert(admin, table, [first]);
      calls.push(...waves(app.call, 10));
      await lock.release();
      const results = await Promise.all(calls);
      await app.runtime.drainAudit().catch(() => {});
      await app.sink.close();

      const read: PgQuery = (sql, params) => admin.query(sql, params);
      expect(await auditBeforeEffectBreaks(app, results, read, table)).toEqual([]);
      expectFailedExactlyWithTheirStatement(results, log.inserts);
      // The first wave rode the killed statement. The second may meet a killed idle connection the pool has not yet
      // dropped, and then fails with its statement (checked above); the third was queued behind a statement the
      // server was running, so it ran.
      expect(log.inserts[0]!.outcome).toBe("rejected");
      expect(results.slice(0, 10).map((result) => result.status)).toEqual(Array(10).fill("failed"));
      expect(results.slice(20).map((result) => result.status)).toEqual(Array(10).fill("completed"));

      // The rows of the killed statement are declared lost by the closing checkpoint; the rest of the chain verifies.
      const lost = log.inserts.filter((insert) => insert.outcome === "rejected").reduce((n, insert) => n + insert.rows.length, 0);
      const trail = await readPgAuditTrail({ query: read, table });
      expect(verifyAuditTrail({ ...trail, verifySignature })).toMatchObject({ intact: true, declaredLost: lost, findings: [] });
    } finally {
      await pool.end();
    }
  });

  it("a statement the server rejects (a constraint) fails exactly the calls whose rows it carried; the statement queued behind it is written", async () => {
    const table = `${schema}.constrained`;
    await applyAuditDdl((sql) => admin.query(sql), table);
    // Only mallory's started row breaks it, so mallory's requested and failed rows are stored like any other.
    await admin.query(`alter table ${table} add constraint no_mallory_start check (not (type = 'capability.started' and actor_id = 'mallory'))`);
    const pool = createTestPool({ max: 10 });
    try {
      const log = logAuditInserts((sql, params) => pool.query(sql, params));
      const app = strictAuditedApp({ query: log.query, table });
      const lock = await holdTableLock(admin, table);
      const poisoned = ["dana", "eve", "mallory", "frank"].map((actor) => app.call(actor));
      await blockedInsert(admin, table);
      // Sent while the poisoned statement waits, so never in it.
      const behind = waves(app.call, 6);
      await lock.release();
      const results = await Promise.all([...poisoned, ...behind]);
      await app.runtime.drainAudit().catch(() => {});
      await app.sink.close();

      expect(await auditBeforeEffectBreaks(app, results, (sql, params) => admin.query(sql, params), table)).toEqual([]);
      expectFailedExactlyWithTheirStatement(results, log.inserts);
      const malloryStatement = statementOfStarted(log.inserts, results[2]!.executionId)!;
      expect(malloryStatement.outcome).toBe("rejected");
      expect((malloryStatement.error as { code?: string }).code).toBe("23514");
      // The calls that shared mallory's statement fail with it, and none of them ran; the ones behind it all ran.
      for (const result of results.slice(0, 4)) {
        if (statementOfStarted(log.inserts, result.executionId) === malloryStatement) expect(app.ran.has(result.executionId)).toBe(false);
      }
      expect(results.slice(4).map((result) => result.status)).toEqual(Array(6).fill("completed"));
    } finally {
      await pool.end();
    }
  });
});

describe("group commit across a server restart (a server of the test's own)", () => {
  let server: EmbeddedServer;
  beforeAll(async () => {
    server = await startEmbeddedServer();
  }, 120_000);
  afterAll(async () => {
    await server?.remove();
  });

  it("calls in flight at the stop and calls while it is down fail without running; after the restart calls run; every row matches a call that ran", async () => {
    const table = "audit_events";
    const admin = new pg.Pool({ connectionString: server.url, max: 2 });
    admin.on("error", () => {});
    const pool = new pg.Pool({ connectionString: server.url, max: 10 });
    pool.on("error", () => {});
    try {
      await applyAuditDdl((sql) => admin.query(sql), table);
      const log = logAuditInserts((sql, params) => pool.query(sql, params));
      const app = strictAuditedApp({ query: log.query, table });
      const before = await Promise.all(waves(app.call, 10));

      const lock = await holdTableLock(admin, table);
      const inFlight = waves(app.call, 10);
      await blockedInsert(admin, table);
      await server.stop();
      const atStop = await Promise.all(inFlight);
      await lock.release();
      const whileDown = await Promise.all(waves(app.call, 10));
      await server.start();
      const after = await Promise.all(waves(app.call, 10));
      await app.runtime.drainAudit().catch(() => {});
      await app.sink.close();

      expect(before.map((r) => r.status)).toEqual(Array(10).fill("completed"));
      expect(atStop.map((r) => r.status)).toEqual(Array(10).fill("failed"));
      expect(whileDown.map((r) => r.status)).toEqual(Array(10).fill("failed"));
      expect(after.map((r) => r.status)).toEqual(Array(10).fill("completed"));
      const results = [...before, ...atStop, ...whileDown, ...after];
      expect(await auditBeforeEffectBreaks(app, results, (sql, params) => admin.query(sql, params), table)).toEqual([]);
      expectFailedExactlyWithTheirStatement(results, log.inserts);
    } finally {
      await pool.end();
      await admin.end();
    }
  });
});
