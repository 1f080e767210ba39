import { readFileSync } from "node:fs";
import type pg from "pg";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { APPROVALS_DDL, AUDIT_DDL, createPgApprovalCoordinator, createPgAuditSink, pgQueryFromPool } from "../src/index.js";
import { os } from "./support/orpc.js";
import { createTestPool, dropTestSchema, REAL_SERVER, testSchemaName } from "./support/real-server.js";

// The README's complete example runs here verbatim: the lines between the region markers must
// appear, in order, in the README's example block.
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const thisFile = readFileSync(new URL(import.meta.url), "utf8");
const normalize = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");

describe("README example", () => {
  it("the README shows the code this test runs", () => {
    const start = thisFile.lastIndexOf("// #region readme");
    const end = thisFile.lastIndexOf("// #endregion readme");
    expect(start).toBeGreaterThan(0);
    const region = normalize(thisFile.slice(thisFile.indexOf("\n", start) + 1, end));
    expect(region.length).toBeGreaterThan(20);
    expect(normalize(readme).join("\n")).toContain(region.join("\n"));
  });
});

describe(`README example on a ${REAL_SERVER}`, () => {
  const schema = testSchemaName("readme");
  let admin: pg.Pool;
  beforeAll(async () => {
    // The README reads its seal secret from the environment; a test-only one stands in here.
    process.env.APPROVAL_SEAL_SECRET ??= "test-only-seal-secret-at-least-32-bytes-long";
    admin = createTestPool({ max: 1 });
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`create schema ${schema}`);
  });
  afterAll(async () => {
    if (admin === undefined) return;
    await dropTestSchema(admin, schema);
    await admin.end();
  });

  it("runs: approval-required, decide, resume, drain, close", async () => {
    // The README uses `new pg.Pool({ connectionString: process.env.DATABASE_URL })`; the test
    // points the default table names at this file's schema.
    const pool = createTestPool({ searchPath: schema });

    // #region readme
    const query = pgQueryFromPool(pool); // also attaches the pool's "error" listener: see "Connections"

    // Once, from your migrations (a multi-statement script: no parameter array).
    await pool.query(APPROVALS_DDL);
    await pool.query(AUDIT_DDL);

    const ap = agentProcedure(os);
    const registry = createCapabilityRegistry({
      orders: {
        refund: ap
          .input(z.object({ orderId: z.string(), amount: z.number() }))
          .meta({
            agent: {
              description: "Refund an order.",
              expose: { mcp: true },
              sideEffect: "write",
              risk: "high",
              approval: { required: true },
            },
          })
          .handler(({ input }) => ({ refunded: input.amount })),
      },
    });
    const governance = defineGovernance({ registry });

    // One clock for the runtime and the coordinator.
    const now = () => new Date();
    const coordinator = createPgApprovalCoordinator({ query, now });
    const sink = createPgAuditSink({ query, batch: { size: 50, flushMs: 250 } });
    const runtime = createAgentRuntime({
      governance,
      now,
      // Seals requests and decisions: a row edited in the table is refused at resume (docs: tamper-evident approvals).
      approvals: { coordinator, seal: { keys: [{ id: "2026-12", secret: process.env.APPROVAL_SEAL_SECRET! }] } },
      audit: { sinks: [sink], strict: true },
    });

    const dana = { id: "user_dana", kind: "user" } as const;
    const pending = await runtime.invoke("orders.refund", { orderId: "ord_1", amount: 25 }, { actor: dana, context: {}, surface: "mcp" });
    if (pending.status !== "approval-required") throw new Error(`expected approval-required, got ${pending.status}`);

    // Later, in any process: the record lives in Postgres.
    const priya = { id: "user_priya", kind: "user" } as const;
    await runtime.approvals.decide(pending.approval.id, { status: "approved", approver: priya });
    const done = await runtime.resume(pending.approval.id, { context: {} });
    // done.status === "completed", done.output: { refunded: 25 }

    // Shutdown: drain the runtime, then close the sink, then end the pool.
    await runtime.drainAudit();
    await sink.close();
    await pool.end();
    // #endregion readme

    expect(done).toMatchObject({ status: "completed", output: { refunded: 25 } });
    const audit = await admin.query(`select type from ${schema}.orpc_agent_audit_events`);
    expect(audit.rows.map((r: { type: string }) => r.type).sort()).toEqual([
      "capability.approval_requested",
      "capability.approved",
      "capability.completed",
      "capability.requested",
      "capability.started",
    ]);
    const approvals = await admin.query(`select status from ${schema}.orpc_agent_approvals`);
    expect(approvals.rows).toEqual([{ status: "consumed" }]);
  });
});
