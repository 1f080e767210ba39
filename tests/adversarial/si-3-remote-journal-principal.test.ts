// SI-3 / SI-8 for the invocation journal behind createCapabilityRouter (issue 43): a principal is the actor id, kind
// and acting agent (`via`) the server's `resolve` authenticated. A second principal that differs from the first only
// in its acting agent, or only in its kind, attacks the first one's invocation ids over real loopback HTTP: resume,
// reconcile, re-invoke with the same id (same input or another), and reading the first one's journaled outcome.
// Another principal's id must answer exactly like an unused one; the journal row and its approval stay untouched.
// The rule is resume's (R2, matchesRequester): a guard without an acting agent (the user alone) may act for the
// agent that worked on the user's behalf, never the other way round (docs/guides/acting-agent.md).
import {
  agentMeta,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type Actor,
  type AgentAuditEvent,
} from "@orpc-agent/core";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import {
  createCapabilityRouter,
  createInMemoryInvocationJournal,
  createInvocationService,
  type InvocationEvent,
  type InvocationJournal,
} from "@orpc-agent/core/server";
import { createPgInvocationJournal } from "@orpc-agent/postgres";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { invocationsDdl } from "../../packages/postgres/src/ddl.js";
import { quietly } from "../../packages/ai-sdk/test/support/remote-server.js";
import { serveOverRpc } from "./support/rpc-server.js";

// One token per principal; the request body never names one (D-1).
const IDENTITIES: Record<string, Actor> = {
  "tok-bot": { id: "u_dana", kind: "user", via: { id: "support-bot" } },
  "tok-other": { id: "u_dana", kind: "user", via: { id: "other-agent" } },
  "tok-third": { id: "u_dana", kind: "user", via: { id: "third-agent" } },
  "tok-service-bot": { id: "u_dana", kind: "service", via: { id: "support-bot" } },
  "tok-service": { id: "u_dana", kind: "service" },
  "tok-user": { id: "u_dana", kind: "user" },
};

const schema = `si3_remote_journal_${process.pid}`;
let pool: pg.Pool | undefined;
let tables = 0;
beforeAll(async () => {
  pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 4 });
  pool.on("error", () => {});
  await pool.query(`drop schema if exists ${schema} cascade`);
  await pool.query(`create schema ${schema}`);
});
afterAll(async () => {
  await pool!.query(`drop schema if exists ${schema} cascade`);
  await pool!.end();
});

/** A fresh PostgreSQL journal table per test, created by the package's own DDL. */
async function pgJournal(): Promise<InvocationJournal> {
  const table = `${schema}.inv_${++tables}`;
  await pool!.query(invocationsDdl(table));
  return createPgInvocationJournal({ query: (sql, params) => pool!.query(sql, params as unknown[]), table });
}

const JOURNALS: { name: string; open(): Promise<InvocationJournal> }[] = [
  { name: "in-memory", open: async () => createInMemoryInvocationJournal() },
  { name: "PostgreSQL", open: pgJournal },
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function remoteApp(journal: InvocationJournal) {
  const audit: AgentAuditEvent[] = [];
  const journalEvents: InvocationEvent[] = [];
  const handled: { capability: string; via: string | null; kind: string | undefined; key: string | undefined }[] = [];
  const record = (capability: string, context: { agent?: { actor: Actor; idempotencyKey?: string } }) =>
    handled.push({ capability, via: context.agent?.actor.via?.id ?? null, kind: context.agent?.actor.kind, key: context.agent?.idempotencyKey });
  const registry = createCapabilityRegistry({
    who: ap
      .input(z.looseObject({}))
      .meta(agentMeta({ description: "Report who acts.", expose: { aiSdk: true }, sideEffect: "write", risk: "low" }))
      .handler(({ context }) => {
        record("who", context);
        return { via: context.agent?.actor.via?.id ?? null, kind: context.agent?.actor.kind ?? null };
      }),
    // Hangs on its first run until its time bound ends it: a write whose outcome the journal records as unknown.
    slow: ap
      .input(z.looseObject({}))
      .meta(agentMeta({ description: "Slow write.", expose: { aiSdk: true }, sideEffect: "write", risk: "low", timeoutMs: 100 }))
      .handler(async ({ context, signal }) => {
        record("slow", context);
        if (handled.filter((h) => h.capability === "slow").length === 1) await new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true }));
        return { via: context.agent?.actor.via?.id ?? null };
      }),
    pay: ap
      .input(z.looseObject({ amount: z.number() }))
      .meta(agentMeta({ description: "Pay.", expose: { aiSdk: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
      .handler(({ context }) => {
        record("pay", context);
        return { via: context.agent?.actor.via?.id ?? null };
      }),
  });
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: (event) => void audit.push(event),
  });
  const service = createInvocationService({ journal, namespace: "si3j", revision: "r1", onEvent: (event) => void journalEvents.push(event) });
  const router = quietly(() =>
    createCapabilityRouter<{ authorization?: string }, Record<string, never>>({
      service,
      runtime,
      surface: "aiSdk",
      resolve: async ({ context }) => {
        const actor = IDENTITIES[/^Bearer (.+)$/.exec(context.authorization ?? "")?.[1] ?? ""];
        return actor === undefined ? null : { actor, context: {} };
      },
      authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
    }),
  );
  const url = await serveOverRpc(router, closers, (req) => ({ authorization: req.headers.authorization }));
  const as = (token: string) => createHTTPCapabilityClient({ url, headers: { authorization: `Bearer ${token}` } });
  return { runtime, service, audit, journalEvents, handled, as };
}

let ids = 0;
const freshId = () => `inv-si3-journal-${process.pid}-${++ids}-${Math.random().toString(36).slice(2)}`;

/** A paid call of the support bot, suspended and then approved by a manager: the first principal's open approval. */
async function approvedSuspension(app: Awaited<ReturnType<typeof remoteApp>>) {
  const invocationId = freshId();
  const first = await app.as("tok-bot").invoke({ capabilityId: "pay", input: { amount: 5 }, invocationId });
  if (first.status !== "approval-required") throw new Error(`expected a suspension, got ${first.status}`);
  await app.runtime.approvals.decide(first.approval.id, { status: "approved", approver: { id: "u_manager", kind: "user" } });
  return { invocationId, approvalId: first.approval.id };
}

describe.each(JOURNALS)("another principal's invocation id over HTTP ($name journal)", (journalKind) => {
  it("SI-8: reconcile of another acting agent's or kind's id answers absent, exactly like an unused id", async () => {
    const app = await remoteApp(await journalKind.open());
    const settled = freshId();
    expect(await app.as("tok-bot").invoke({ capabilityId: "who", input: {}, invocationId: settled })).toMatchObject({ status: "completed" });
    const { invocationId: suspended } = await approvedSuspension(app);
    for (const invocationId of [settled, suspended]) {
      for (const token of ["tok-other", "tok-service-bot", "tok-service"]) {
        expect(await app.as(token).reconcile({ invocationId }), `${token} on ${invocationId}`).toEqual({ protocol: 1, invocationId, state: "absent" });
      }
      // The bot itself, and the user alone it acts for (resume's rule), still read it.
      expect(await app.as("tok-bot").reconcile({ invocationId })).not.toMatchObject({ state: "absent" });
      expect(await app.as("tok-user").reconcile({ invocationId })).not.toMatchObject({ state: "absent" });
    }
  });

  it("SI-3: the user's own id (no acting agent) reconciles as absent for an agent acting for that user", async () => {
    const app = await remoteApp(await journalKind.open());
    const invocationId = freshId();
    expect(await app.as("tok-user").invoke({ capabilityId: "who", input: {}, invocationId })).toMatchObject({ status: "completed" });
    expect(await app.as("tok-bot").reconcile({ invocationId })).toEqual({ protocol: 1, invocationId, state: "absent" });
    expect(await app.as("tok-user").reconcile({ invocationId })).toMatchObject({ state: "settled" });
  });

  it("SI-3: re-invoking another acting agent's id with the same input runs as the caller's own call, never replays the other's outcome", async () => {
    const app = await remoteApp(await journalKind.open());
    const invocationId = freshId();
    expect(await app.as("tok-bot").invoke({ capabilityId: "who", input: {}, invocationId })).toMatchObject({ status: "completed", output: { via: "support-bot" } });
    for (const [token, via, kind] of [
      ["tok-other", "other-agent", "user"],
      ["tok-service-bot", "support-bot", "service"],
    ] as const) {
      const again = await app.as(token).invoke({ capabilityId: "who", input: {}, invocationId });
      expect(again, token).toMatchObject({ status: "completed", replayed: false, output: { via, kind } });
    }
    // The first principal's row is untouched: it still replays its own outcome.
    expect(await app.as("tok-bot").invoke({ capabilityId: "who", input: {}, invocationId })).toMatchObject({ replayed: true, output: { via: "support-bot" } });
    expect(app.handled.map((h) => h.via)).toEqual(["support-bot", "other-agent", "support-bot"]);
  });

  it("SI-8: re-invoking another acting agent's id with other input runs as a fresh call, not INVOCATION_CONFLICT", async () => {
    const app = await remoteApp(await journalKind.open());
    const invocationId = freshId();
    await app.as("tok-bot").invoke({ capabilityId: "who", input: {}, invocationId });
    const other = await app.as("tok-other").invoke({ capabilityId: "who", input: { note: "other input" }, invocationId });
    expect(other).toMatchObject({ status: "completed", replayed: false, output: { via: "other-agent" } });
    // The owner reusing its own id for other input is the conflict the id exists to catch.
    expect(await app.as("tok-bot").invoke({ capabilityId: "who", input: { note: "other input" }, invocationId })).toMatchObject({
      status: "failed",
      error: { code: "INVOCATION_CONFLICT" },
    });
  });

  it("SI-3: re-invoking another acting agent's suspended id never hands out its approval; the caller gets an approval of its own", async () => {
    const app = await remoteApp(await journalKind.open());
    const { invocationId, approvalId } = await approvedSuspension(app);
    const again = await app.as("tok-other").invoke({ capabilityId: "pay", input: { amount: 5 }, invocationId });
    expect(again).toMatchObject({ status: "approval-required", replayed: false });
    expect(JSON.stringify(again)).not.toContain(approvalId);
    const own = again.status === "approval-required" ? await app.runtime.approvals.get(again.approval.id) : null;
    expect(own?.actor).toEqual({ id: "u_dana", kind: "user", via: { id: "other-agent" } });
    // The bot's suspension is still its own, approved and resumable.
    expect(await app.as("tok-bot").reconcile({ invocationId })).toMatchObject({ state: "pending", result: { approval: { id: approvalId } } });
    expect(await app.as("tok-bot").resume({ invocationId, approvalId })).toMatchObject({ status: "completed", output: { via: "support-bot" } });
  });

  it("SI-3: two other agents reusing one id run under effect keys of their own, never each other's nor the owner's", async () => {
    const app = await remoteApp(await journalKind.open());
    const invocationId = freshId();
    for (const token of ["tok-bot", "tok-other", "tok-third", "tok-service-bot"]) {
      expect(await app.as(token).invoke({ capabilityId: "who", input: {}, invocationId }), token).toMatchObject({ status: "completed", replayed: false });
    }
    const keys = app.handled.map((h) => h.key);
    expect(keys.every((key) => typeof key === "string" && key.length > 0)).toBe(true);
    expect(new Set(keys).size).toBe(4);
  });

  it("SI-3: a row released by a not-applied resolution is claimed again only by its own principal, under its own effect key", async () => {
    const app = await remoteApp(await journalKind.open());
    const invocationId = freshId();
    expect(await app.as("tok-bot").invoke({ capabilityId: "slow", input: {}, invocationId })).toMatchObject({ status: "outcome-unknown" });
    const lost = await app.service.get(invocationId);
    expect(lost?.state).toBe("unknown");
    await app.service.resolve(invocationId, { expectedFence: lost!.fence, by: { id: "u_ops", kind: "user" }, resolution: { kind: "not-applied" } });
    const released = await app.service.get(invocationId);
    // Another acting agent with the very same request runs a call of its own; the released row waits for its owner.
    expect(await app.as("tok-other").invoke({ capabilityId: "slow", input: {}, invocationId })).toMatchObject({ status: "completed", output: { via: "other-agent" } });
    expect(await app.service.get(invocationId)).toMatchObject({ state: "pending", fence: released!.fence });
    expect(await app.as("tok-bot").invoke({ capabilityId: "slow", input: {}, invocationId })).toMatchObject({ status: "completed", output: { via: "support-bot" } });
    const [first, other, rerun] = app.handled;
    expect(rerun!.key).toBe(first!.key);
    expect(other!.key).not.toBe(first!.key);
  });

  it("SI-8: resuming another acting agent's or kind's approval answers exactly like an unknown approval, enters nothing and leaves it usable", async () => {
    const app = await remoteApp(await journalKind.open());
    const { invocationId, approvalId } = await approvedSuspension(app);
    const unknown = await app.as("tok-bot").resume({ invocationId, approvalId: "apr_never_issued" });
    const auditBefore = app.audit.length;
    const journalBefore = app.journalEvents.length;
    for (const token of ["tok-other", "tok-service-bot", "tok-service"]) {
      expect(await app.as(token).resume({ invocationId, approvalId }), token).toEqual(unknown);
    }
    // Nothing was entered, claimed or audited for them: the same as for an approval that does not exist.
    expect(app.audit.slice(auditBefore)).toEqual([]);
    expect(app.journalEvents.slice(journalBefore)).toEqual([]);
    expect(app.handled).toEqual([]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("approved");
    expect(await app.as("tok-bot").reconcile({ invocationId })).toMatchObject({ state: "pending" });
    expect(await app.as("tok-bot").resume({ invocationId, approvalId })).toMatchObject({ status: "completed", output: { via: "support-bot" } });
    expect(app.handled.map((h) => h.via)).toEqual(["support-bot"]);
  });

  it("SI-3: the user alone may resume the agent's approval (resume's rule), and it runs with the record's acting agent; re-invoking its id is a conflict", async () => {
    const app = await remoteApp(await journalKind.open());
    const { invocationId, approvalId } = await approvedSuspension(app);
    // Its own request under that id is another request (the agent's is part of what the id names): a conflict, never a second run.
    expect(await app.as("tok-user").invoke({ capabilityId: "pay", input: { amount: 5 }, invocationId })).toMatchObject({
      status: "failed",
      error: { code: "INVOCATION_CONFLICT" },
    });
    expect(await app.as("tok-user").resume({ invocationId, approvalId })).toMatchObject({ status: "completed", output: { via: "support-bot" } });
    expect(app.handled.map((h) => h.via)).toEqual(["support-bot"]);
  });
});
