import type { PGlite } from "@electric-sql/pglite";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createInvocationService } from "@orpc-agent/core/server";
import { APPROVALS_DDL, createPgApprovalCoordinator, createPgInvocationJournal, INVOCATIONS_DDL } from "../../src/index.js";
import { ap } from "../support/orpc.js";
import { createPglite, pgliteQuery } from "../support/pglite.js";

// The journal under the invocation service (docs/architecture/spec/distributed.md#distributed-5-3, docs/architecture/spec/distributed.md#distributed-5-4), on PGlite so it always runs:
// replays are type-identical to first answers after a trip through jsonb, and restarts lose nothing.
let db: PGlite;
beforeAll(async () => {
  db = await createPglite();
  await db.exec(INVOCATIONS_DDL);
  await db.exec(APPROVALS_DDL);
});
afterAll(async () => {
  await db?.close();
});

const dana = { id: "u_dana", kind: "user" } as const;
const context = {};

/** One "process": its own journal, coordinator, service and runtime factory over the shared database. */
function boot(effects: string[]) {
  const query = pgliteQuery(db);
  const registry = createCapabilityRegistry({
    notes: {
      read: ap
        .input(z.object({ id: z.string() }))
        .meta({ agent: { description: "Read a note.", expose: { mcp: true }, sideEffect: "read", risk: "low" } })
        .handler(({ input }) => {
          effects.push(`read:${input.id}`);
          return { id: input.id, at: new Date("2030-01-02T03:04:05.006Z"), tags: new Map([["a", 1n]]), missing: undefined, nan: Number.NaN };
        }),
      big: ap
        .input(z.object({ size: z.number() }))
        .meta({ agent: { description: "A large note.", expose: { mcp: true }, sideEffect: "read", risk: "low" } })
        .handler(({ input }) => ({ text: "x".repeat(input.size) })),
    },
    orders: {
      refund: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: { description: "Refund.", expose: { mcp: true }, sideEffect: "write", risk: "high", approval: { required: true } } })
        .handler(({ input }) => {
          effects.push(`refund:${input.orderId}`);
          return { refunded: input.orderId };
        }),
    },
  });
  const coordinator = createPgApprovalCoordinator({ query });
  const service = createInvocationService({
    journal: createPgInvocationJournal({ query }),
    namespace: "svc",
    revision: "r1",
    maxStoredOutputBytes: 1_000,
  });
  const runtime = () => createAgentRuntime({ governance: defineGovernance({ registry }), approvals: { coordinator, seal: false }, audit: () => {} });
  return { service, runtime, coordinator };
}

describe("the invocation service over the Postgres journal (PGlite)", () => {
  it("a replay after a restart is type-identical to the first answer: Date, Map, bigint and NaN survive jsonb", async () => {
    const effects: string[] = [];
    const first = boot(effects);
    const invocationId = `inv-${crypto.randomUUID()}`;
    const options = { actor: dana, context, surface: "mcp" as const, invocationId };
    const answered = await first.service.invoke(first.runtime(), "notes.read", { id: "n1" }, options);
    expect(answered).toMatchObject({ status: "completed", replayed: false });
    const output = (answered as { output: { at: Date; tags: Map<string, bigint> } }).output;
    expect(output.at).toBeInstanceOf(Date);

    const restarted = boot(effects);
    const replay = await restarted.service.invoke(restarted.runtime(), "notes.read", { id: "n1" }, options);
    expect(replay).toEqual({ ...answered, replayed: true });
    const replayed = (replay as { output: { at: Date; tags: Map<string, bigint>; nan: number } }).output;
    expect(replayed.at).toBeInstanceOf(Date);
    expect(replayed.tags).toEqual(new Map([["a", 1n]]));
    expect(replayed.nan).toBeNaN();
    expect(effects).toEqual(["read:n1"]);
    // The same id with another input is a different request: refused, not replayed.
    expect(await restarted.service.invoke(restarted.runtime(), "notes.read", { id: "n2" }, options)).toMatchObject({
      status: "failed",
      error: { code: "INVOCATION_CONFLICT", retryable: false },
    });
  });

  it("an output over maxStoredOutputBytes is journaled without it and replays outputWithheld", async () => {
    const app = boot([]);
    const options = { actor: dana, context, surface: "mcp" as const, invocationId: `inv-${crypto.randomUUID()}` };
    const first = await app.service.invoke(app.runtime(), "notes.big", { size: 5_000 }, options);
    expect(first).toMatchObject({ status: "completed", output: { text: "x".repeat(5_000) } });
    const replay = await app.service.invoke(app.runtime(), "notes.big", { size: 5_000 }, options);
    expect(replay).toMatchObject({ status: "completed", replayed: true, outputWithheld: true });
    expect(replay).not.toHaveProperty("output");
  });

  it("suspend in one boot, resume in another: one effect, the row settled at fence 2, replays after", async () => {
    const effects: string[] = [];
    const one = boot(effects);
    const invocationId = `inv-${crypto.randomUUID()}`;
    const suspended = await one.service.invoke(one.runtime(), "orders.refund", { orderId: "o1" }, { actor: dana, context, surface: "mcp", invocationId });
    if (suspended.status !== "approval-required") throw new Error(`expected approval-required, got ${suspended.status}`);
    expect(await one.service.get(invocationId)).toMatchObject({ state: "pending", approvalId: suspended.approval.id, fence: 1 });

    const two = boot(effects);
    await two.runtime().approvals.decide(suspended.approval.id, { status: "approved", approver: { id: "u_priya", kind: "user" } });
    const done = await two.service.resume(two.runtime(), suspended.approval.id, { actor: dana, context, surface: "mcp", invocationId });
    expect(done).toMatchObject({ status: "completed", output: { refunded: "o1" }, replayed: false });
    expect(await two.service.resume(two.runtime(), suspended.approval.id, { actor: dana, context, surface: "mcp", invocationId })).toEqual({
      ...done,
      replayed: true,
    });
    expect(await two.service.get(invocationId)).toMatchObject({ state: "settled", fence: 2 });
    expect(effects).toEqual(["refund:o1"]);
  });
});
