// The README's complete example, run verbatim: the lines between the region markers must appear, in order, in
// the README's example block (its imports aside, which resolve by package name there and by path here).
import { readFileSync } from "node:fs";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { os as rootOs } from "@orpc/server";
import pg from "pg";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import type { RemoteExecutionResult } from "@orpc-agent/core/client";
import { createInvocationService } from "@orpc-agent/core/server";
import { approvalEventKey, createDBOSCapabilitySteps } from "../src/index.js";
import { createTestDatabase, REAL_SERVER, type TestDatabase } from "./support/database.js";
import { withIdleTransactionTimeout } from "./support/dbos.js";
import { idempotencyKeyOf } from "./support/journal.js";
import { APPROVALS_DDL, INVOCATIONS_DDL, createPgApprovalCoordinator, createPgInvocationJournal, type PgQuery } from "./support/postgres.js";

// The root @orpc/server is a second declaration copy of the one core is typed against (test-fixtures/registry.ts).
const os = rootOs as unknown as Parameters<typeof agentProcedure>[0];

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
    expect(region.length).toBeGreaterThan(40);
    expect(normalize(readme).join("\n")).toContain(region.join("\n"));
  });
});

describe(`README example on a ${REAL_SERVER}`, () => {
  let db: TestDatabase;
  // The example's own pool, ended before the database is dropped under it (an idle client would otherwise
  // receive 57P01 from the forced drop).
  let examplePool: pg.Pool | undefined;
  beforeAll(async () => {
    // The README reads its seal secret from the environment; a test-only one stands in here.
    process.env.APPROVAL_SEAL_SECRET ??= "test-only-seal-secret-at-least-32-bytes-long";
    db = await createTestDatabase("readme");
    // The URL a deployment would set; the timeout option spares the run pg's DeprecationWarning (support/dbos.ts).
    process.env.DATABASE_URL = withIdleTransactionTimeout(db.url);
  });
  afterAll(async () => {
    if (DBOS.isInitialized()) await DBOS.shutdown();
    if (examplePool !== undefined && !examplePool.ended) await examplePool.end();
    await db?.drop();
  });

  it("runs: the refund suspends for approval, is decided by another user, woken, and runs once as the requester", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});

    // #region readme
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
    // PostgreSQL may close an idle connection (restart, failover, admin command): without a listener, Node
    // turns that into an uncaught exception and the process exits.
    pool.on("error", (error) => console.error("idle PostgreSQL connection closed:", error.message));
    const query: PgQuery = (sql, params) => pool.query(sql, params);
    await pool.query(INVOCATIONS_DDL);
    await pool.query(APPROVALS_DDL);

    const ap = agentProcedure(os);
    const refunds: string[] = [];
    const governance = defineGovernance({
      registry: createCapabilityRegistry({
        orders: {
          lookup: ap
            .input(z.object({ orderId: z.string() }))
            .meta({ agent: { description: "Look an order up.", expose: { workflow: true }, sideEffect: "read", risk: "low" } })
            .handler(({ input }) => ({ orderId: input.orderId, status: "delivered" })),
          refund: ap
            .input(z.object({ orderId: z.string(), cents: z.number().int().positive() }))
            .meta({
              agent: {
                description: "Refund a delivered order.",
                expose: { workflow: true },
                sideEffect: "write",
                risk: "high",
                approval: { required: true, type: "human-confirmation" },
              },
            })
            .handler(({ input, context }) => {
              // The same key for every execution of this step: hand it to the payment provider.
              refunds.push(`${input.orderId} ${context.agent?.idempotencyKey}`);
              return { refunded: input.cents };
            }),
        },
      }),
    });
    const coordinator = createPgApprovalCoordinator({ query });
    const runtime = () => createAgentRuntime({ governance, approvals: { coordinator, seal: { keys: [{ id: "2026-12", secret: process.env.APPROVAL_SEAL_SECRET! }] } } });
    const service = createInvocationService({ journal: createPgInvocationJournal({ query }), namespace: "shop", revision: "2025-01-15" });

    const steps = createDBOSCapabilitySteps({
      service,
      runtime,
      // Who started the workflow, as DBOS persisted it: never a workflow argument.
      actor: () => ({ id: DBOS.authenticatedUser, kind: "user" }),
      context: () => ({}),
    });

    const refundWorkflow = DBOS.registerWorkflow(
      async (orderId: string) => {
        const order = await steps.invoke<{ status: string }>("orders.lookup", { orderId }, { key: "lookup" });
        if (order.status !== "completed" || order.output.status !== "delivered") return order;
        // Suspends here, durably, until an approver decides.
        return steps.invoke<{ refunded: number }>("orders.refund", { orderId, cents: 1500 }, { key: "refund" });
      },
      { name: "refundWorkflow" },
    );

    DBOS.setConfig({ name: "shop", systemDatabaseUrl: process.env.DATABASE_URL });
    await DBOS.launch();

    // A request handler starts the refund for the signed-in user.
    const handle = await DBOS.startWorkflow(refundWorkflow, { workflowID: "refund-o_1001", authenticatedUser: "u_dana" })("o_1001");

    // The approver's inbox: the suspended step published what it waits for.
    const waiting = await DBOS.getEvent<RemoteExecutionResult>(handle.workflowID, approvalEventKey("refund"), { timeoutSeconds: 30 });
    if (waiting?.status !== "approval-required") throw new Error("The refund should be waiting for approval.");
    await runtime().approvals.decide(waiting.approval.id, { status: "approved", approver: { id: "u_priya", kind: "user" } });
    await steps.wake({ approvalId: waiting.approval.id });

    const result = await handle.getResult();
    console.log(result.status, result.status === "completed" ? result.output : result); // completed { refunded: 1500 }
    // #endregion readme
    examplePool = pool;

    expect(log).toHaveBeenCalledWith("completed", { refunded: 1500 });
    log.mockRestore();
    expect(refunds).toEqual([`o_1001 ${idempotencyKeyOf("shop", "dbos:refund-o_1001:refund")}`]);
    expect(await coordinator.get(waiting.approval.id)).toMatchObject({ status: "consumed", actor: { id: "u_dana" } });
    // The workflow id is its result's key: starting it again replays, nothing runs.
    const again = await (await DBOS.startWorkflow(refundWorkflow, { workflowID: "refund-o_1001", authenticatedUser: "u_dana" })("o_1001")).getResult();
    expect(again).toEqual(result);
    expect(refunds).toHaveLength(1);
    await DBOS.shutdown();
    await pool.end();
  });
});
