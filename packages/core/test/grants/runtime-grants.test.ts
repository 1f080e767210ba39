import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it, vi } from "vitest";
import { captureStartupWarnings } from "../support/startup-warnings.js";
import {
  agentMeta,
  agentProcedure,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  definePolicy,
  defineGovernance,
  requireApproval,
  type Actor,
  type AgentAuditEvent,
  type AgentInvocationInfo,
  type AgentPolicy,
  type ApprovalCoordinator,
  type ApprovalsConfig,
  type ExecutionResult,
} from "../../src/index.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

// Standing grants, the ordinary paths (SI-13, docs/guides/standing-grants.md).

const DANA: Actor = { id: "user_dana", kind: "user" };
const PRIYA: Actor = { id: "user_priya", kind: "user", displayName: "Priya", attributes: { team: "ops" } };
const HOUR = 3_600_000;
const START = Date.parse("2030-01-01T00:00:00.000Z");

function setup(options: { approvals?: ApprovalsConfig; policies?: AgentPolicy[]; grants?: boolean } = {}) {
  let now = START;
  const clock = { now: () => new Date(now), advance: (ms: number) => void (now += ms) };
  const events: AgentAuditEvent[] = [];
  const calls: AgentInvocationInfo[] = [];
  const approval = { required: true, type: "manager", ...(options.grants === false ? {} : { grants: { maxUses: 10, maxTtlMs: HOUR, scopes: ["conversation", "actor"] as ("conversation" | "actor")[] } }) };
  const refund = agentProcedure(os)
    .input(z.object({ customerId: z.string(), amount: z.number() }))
    .meta(agentMeta({ description: "Refund a customer.", expose: { aiSdk: true, direct: true }, sideEffect: "write", risk: "high", approval }))
    .handler(({ input, context }) => {
      calls.push(context.agent!);
      return { refunded: input.amount };
    });
  const lookup = agentProcedure(os)
    .input(z.object({ id: z.string() }))
    .meta(agentMeta({ description: "Look up a customer.", expose: { aiSdk: true, direct: true }, sideEffect: "write", risk: "low", approval: { required: true, type: "manager" } }))
    .handler(() => "found");
  const governance = defineGovernance({ registry: createCapabilityRegistry({ refund, lookup }), policies: options.policies ?? [] });
  const runtime = createAgentRuntime({
    governance,
    approvals: { coordinator: createInMemoryApprovalCoordinator({ now: clock.now }), ...options.approvals },
    audit: (event) => void events.push(event),
    now: clock.now,
  });
  return { runtime, events, calls, clock };
}

const ctx = {};
const issueFor = (runtime: ReturnType<typeof setup>["runtime"], extra: Partial<Parameters<ReturnType<typeof setup>["runtime"]["grants"]["issue"]>[0]> = {}) =>
  runtime.grants.issue({ capabilityId: "refund", actor: DANA, surface: "direct", issuers: [PRIYA], grant: { uses: 2, ttlMs: HOUR, scope: "actor" }, ...extra });

function approvalOf(result: ExecutionResult) {
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
  return result.approval;
}

describe("runtime.grants.issue", () => {
  it("returns the stored record: bound terms, the capability's type by default, the runtime's clock; audits grant.issued without condition values", async () => {
    const { runtime, events } = setup();
    const grant = await issueFor(runtime, {
      grant: { uses: 2, ttlMs: 60_000, scope: "actor", conditions: [{ path: "/customerId", op: "eq", value: "c_secret_customer" }], budget: { path: "/amount", max: 100 } },
    });
    expect(grant).toMatchObject({
      capabilityId: "refund",
      actor: DANA,
      surface: "direct",
      scope: "actor",
      types: ["manager"],
      uses: 2,
      usesLeft: 2,
      spent: 0,
      status: "active",
      issuers: [PRIYA],
      budget: { path: "/amount", max: 100 },
    });
    expect(grant.id).toMatch(/^grt_[0-9a-f-]{36}$/);
    expect(grant.definitionDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(grant.issuedAt.getTime()).toBe(START);
    expect(grant.expiresAt.getTime()).toBe(START + 60_000);
    expect(grant.seal).toBeUndefined();
    const [issued] = events.filter((e) => e.type === "grant.issued");
    expect(issued).toMatchObject({
      actor: { id: "user_priya", kind: "user" },
      surface: "direct",
      capabilityId: "refund",
      data: { grantId: grant.id, principal: { id: "user_dana", kind: "user" }, scope: "actor", types: ["manager"], uses: 2, conditions: [{ path: "/customerId", op: "eq" }], budget: { path: "/amount", max: 100 } },
    });
    expect(issued!.executionId).toBeUndefined();
    expect(JSON.stringify(issued)).not.toContain("c_secret_customer");
    expect(JSON.stringify(issued)).not.toContain("Priya");
  });

  it("refuses malformed options with INPUT_INVALID (stage approval), before anything is stored", async () => {
    const { runtime } = setup();
    const bad: unknown[] = [
      null,
      { capabilityId: "", actor: DANA, surface: "direct", issuers: [PRIYA], grant: { uses: 1, ttlMs: 1, scope: "actor" } },
      { capabilityId: "refund", actor: DANA, surface: "cli", issuers: [PRIYA], grant: { uses: 1, ttlMs: 1, scope: "actor" } },
      { capabilityId: "refund", actor: { id: 1 }, surface: "direct", issuers: [PRIYA], grant: { uses: 1, ttlMs: 1, scope: "actor" } },
      { capabilityId: "refund", actor: DANA, surface: "direct", issuers: PRIYA, grant: { uses: 1, ttlMs: 1, scope: "actor" } },
      { capabilityId: "refund", actor: DANA, surface: "direct", issuers: [PRIYA], grant: { uses: 0, ttlMs: 1, scope: "actor" } },
      { capabilityId: "refund", actor: DANA, surface: "direct", issuers: [PRIYA], grant: { uses: 1, ttlMs: 0, scope: "actor" } },
      { capabilityId: "refund", actor: DANA, surface: "direct", issuers: [PRIYA], grant: { uses: 1, ttlMs: 1, scope: "session" } },
      { capabilityId: "refund", actor: DANA, surface: "direct", issuers: [PRIYA], grant: { uses: 1, ttlMs: 1, scope: "actor", extra: true } },
      { capabilityId: "refund", actor: DANA, surface: "direct", conversationId: "c1", issuers: [PRIYA], grant: { uses: 1, ttlMs: 1, scope: "actor" } },
      { capabilityId: "refund", actor: DANA, surface: "direct", issuers: [PRIYA], types: [""], grant: { uses: 1, ttlMs: 1, scope: "actor" } },
    ];
    for (const options of bad) await expect(runtime.grants.issue(options as never), JSON.stringify(options)).rejects.toMatchObject({ code: "INPUT_INVALID", stage: "approval" });
    expect(await runtime.grants.list()).toEqual([]);
  });
});

describe("a covered call", () => {
  it("completes as an approved call: the grant is ctx.agent.approval, capability.approved names it, no approval is requested", async () => {
    const { runtime, events, calls } = setup();
    const grant = await issueFor(runtime);
    const result = await runtime.invoke("refund", { customerId: "c_ada", amount: 5 }, { actor: DANA, context: ctx });
    expect(result.status).toBe("completed");
    expect(calls[0]!.approval).toEqual({ id: grant.id, approver: PRIYA });
    const types = events.filter((e) => e.executionId !== undefined).map((e) => e.type);
    expect(types).toEqual(["capability.requested", "capability.approved", "capability.started", "capability.completed"]);
    const approved = events.find((e) => e.type === "capability.approved")!;
    expect(approved).toMatchObject({ actor: { id: "user_priya", kind: "user" }, data: { approvalId: grant.id, approver: { id: "user_priya", kind: "user" }, grant: { id: grant.id, usesLeft: 1 } } });
    expect(events.find((e) => e.type === "capability.started")!.data).toEqual({ attempt: 1, approvalId: grant.id });
  });

  it("once the uses are spent the next call asks; list({ active: true }) drops the grant", async () => {
    const { runtime } = setup();
    await issueFor(runtime);
    for (let i = 0; i < 2; i++) expect((await runtime.invoke("refund", { customerId: "c", amount: 1 }, { actor: DANA, context: ctx })).status).toBe("completed");
    expect((await runtime.invoke("refund", { customerId: "c", amount: 1 }, { actor: DANA, context: ctx })).status).toBe("approval-required");
    expect(await runtime.grants.list({ active: true })).toEqual([]);
    expect((await runtime.grants.list())[0]).toMatchObject({ status: "exhausted", usesLeft: 0 });
  });

  it("a capability without grants never reads the grant store, whatever grants exist for others", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const listGrants = vi.fn(inner.listGrants);
    const coordinator: ApprovalCoordinator = { ...inner, listGrants };
    const { runtime } = setup({ approvals: { coordinator } });
    await issueFor(runtime);
    expect((await runtime.invoke("lookup", { id: "x" }, { actor: DANA, context: ctx })).status).toBe("approval-required");
    expect(listGrants).not.toHaveBeenCalled();
    expect((await runtime.invoke("refund", { customerId: "c", amount: 1 }, { actor: DANA, context: ctx })).status).toBe("completed");
    expect(listGrants).toHaveBeenCalledTimes(1);
  });

  it("a store that fails covers nothing: the call asks for approval as without grants", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const coordinator: ApprovalCoordinator = { ...inner, listGrants: async () => Promise.reject(new Error("connection lost")) };
    const { runtime } = setup({ approvals: { coordinator } });
    await issueFor(runtime);
    expect((await runtime.invoke("refund", { customerId: "c", amount: 1 }, { actor: DANA, context: ctx })).status).toBe("approval-required");
    const failingUse: ApprovalCoordinator = { ...inner, useGrant: async () => Promise.reject(new Error("deadlock")) };
    const second = setup({ approvals: { coordinator: failingUse } });
    await issueFor(second.runtime);
    expect((await second.runtime.invoke("refund", { customerId: "c", amount: 1 }, { actor: DANA, context: ctx })).status).toBe("approval-required");
  });
});

describe("runtime.approvals.decide with a grant", () => {
  it("approves the request and issues a grant bound to it; events: capability.approved, then grant.issued", async () => {
    const { runtime, events } = setup();
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c_ada", amount: 5 }, { actor: DANA, context: ctx, surface: "aiSdk", conversationId: "chat_7" }));
    const decided = await runtime.approvals.decide(approval.id, { status: "approved", approver: PRIYA, comment: "ok", grant: { uses: 3, ttlMs: HOUR, scope: "conversation" } });
    expect(decided.status).toBe("approved");
    expect(decided.grant).toMatchObject({ approvalId: approval.id, surface: "aiSdk", scope: "conversation", conversationId: "chat_7", types: ["manager"], usesLeft: 3 });
    expect(events.filter((e) => e.executionId === undefined).map((e) => e.type)).toEqual(["capability.approved", "grant.issued"]);
    expect((await runtime.resume(approval.id, { context: ctx })).status).toBe("completed");
    expect((await runtime.grants.get(decided.grant!.id))!.usesLeft).toBe(3);
    expect((await runtime.invoke("refund", { customerId: "c_ada", amount: 5 }, { actor: DANA, context: ctx, surface: "aiSdk", conversationId: "chat_7" })).status).toBe("completed");
  });

  it("a grant with a rejection, or a malformed grant, is INPUT_INVALID and the record stays pending", async () => {
    const { runtime } = setup();
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c", amount: 5 }, { actor: DANA, context: ctx }));
    await expect(runtime.approvals.decide(approval.id, { status: "rejected", approver: PRIYA, grant: { uses: 1, ttlMs: 1, scope: "actor" } })).rejects.toMatchObject({ code: "INPUT_INVALID" });
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: PRIYA, grant: { uses: -1, ttlMs: 1, scope: "actor" } })).rejects.toMatchObject({
      code: "INPUT_INVALID",
      details: { issues: [{ path: ["grant", "uses"] }] },
    });
    const hostile = { status: "approved", approver: PRIYA, get grant() { throw new Error("boom"); } };
    await expect(runtime.approvals.decide(approval.id, hostile as never)).rejects.toMatchObject({ code: "INPUT_INVALID" });
    expect((await runtime.approvals.get(approval.id))!.status).toBe("pending");
  });

  it("a decision without a grant is unchanged and issues none", async () => {
    const { runtime } = setup();
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c", amount: 5 }, { actor: DANA, context: ctx }));
    const decided = await runtime.approvals.decide(approval.id, { status: "approved", approver: PRIYA });
    expect(decided.grant).toBeUndefined();
    expect(await runtime.grants.list()).toEqual([]);
  });
});

describe("runtime.grants.list, get and revoke", () => {
  it("list filters by exact principal (acting agent included), capability and activity, oldest first", async () => {
    const { runtime, clock } = setup();
    const viaBot: Actor = { ...DANA, via: { id: "bot" } };
    const a = await issueFor(runtime);
    clock.advance(1);
    const b = await issueFor(runtime, { actor: viaBot });
    clock.advance(1);
    const c = await issueFor(runtime, { actor: { id: "user_sam", kind: "user" } });
    expect((await runtime.grants.list()).map((g) => g.id)).toEqual([a.id, b.id, c.id]);
    expect((await runtime.grants.list({ actor: DANA })).map((g) => g.id)).toEqual([a.id]);
    expect((await runtime.grants.list({ actor: viaBot })).map((g) => g.id)).toEqual([b.id]);
    expect(await runtime.grants.list({ capabilityId: "lookup" })).toEqual([]);
    await runtime.grants.revoke(a.id, { by: PRIYA });
    expect((await runtime.grants.list({ active: true })).map((g) => g.id)).toEqual([b.id, c.id]);
    clock.advance(HOUR - 2);
    expect((await runtime.grants.list({ active: true })).map((g) => g.id)).toEqual([b.id, c.id]);
    clock.advance(2);
    expect((await runtime.grants.list({ active: true })).map((g) => g.id)).toEqual([c.id]);
    expect(await runtime.grants.get("grt_unknown")).toBeNull();
    expect(await runtime.grants.get("")).toBeNull();
  });

  it("a covered call takes its use from the oldest live grant, even one stored after a younger one (a clock set back)", async () => {
    const { runtime, events, clock } = setup();
    clock.advance(10);
    const younger = await issueFor(runtime);
    clock.advance(-5);
    const older = await issueFor(runtime);
    const approvedBy = () => events.filter((e) => e.type === "capability.approved").map((e) => (e.data as { grant: { id: string } }).grant.id);
    const call = () => runtime.invoke("refund", { customerId: "c_1", amount: 1 }, { actor: DANA, context: ctx });
    for (let i = 0; i < 3; i++) expect((await call()).status).toBe("completed");
    expect(approvedBy()).toEqual([older.id, older.id, younger.id]);
    expect((await runtime.grants.get(older.id))).toMatchObject({ status: "exhausted", usesLeft: 0 });
    expect((await runtime.grants.get(younger.id))).toMatchObject({ status: "active", usesLeft: 1 });
  });

  it("revoke records grant.revoked once, with who and why; the revoked grant covers nothing", async () => {
    const { runtime, events } = setup();
    const grant = await issueFor(runtime);
    const revoked = await runtime.grants.revoke(grant.id, { by: PRIYA, reason: "done" });
    expect(revoked).toMatchObject({ status: "revoked", revoked: { by: PRIYA, reason: "done" } });
    expect(revoked.revoked!.at.getTime()).toBe(START);
    await runtime.grants.revoke(grant.id, { by: DANA });
    const revokedEvents = events.filter((e) => e.type === "grant.revoked");
    expect(revokedEvents).toHaveLength(1);
    expect(revokedEvents[0]).toMatchObject({ actor: { id: "user_priya" }, capabilityId: "refund", data: { grantId: grant.id, principal: { id: "user_dana" }, usesLeft: 2, reason: "done" } });
    expect((await runtime.invoke("refund", { customerId: "c", amount: 1 }, { actor: DANA, context: ctx })).status).toBe("approval-required");
    await expect(runtime.grants.revoke(grant.id, { by: PRIYA, reason: 5 as never })).rejects.toMatchObject({ code: "INPUT_INVALID" });
  });
});

describe("a coordinator without grant operations", () => {
  it("refuses every grant with GRANT_NOT_ALLOWED, lists none, and its calls ask as before", async () => {
    const inner = createInMemoryApprovalCoordinator();
    const coordinator: ApprovalCoordinator = { create: inner.create, get: inner.get, decide: inner.decide, markConsumed: inner.markConsumed, list: inner.list };
    const { runtime } = setup({ approvals: { coordinator } });
    await expect(issueFor(runtime)).rejects.toMatchObject({ code: "GRANT_NOT_ALLOWED", stage: "approval" });
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c", amount: 5 }, { actor: DANA, context: ctx }));
    await expect(runtime.approvals.decide(approval.id, { status: "approved", approver: PRIYA, grant: { uses: 1, ttlMs: 1, scope: "actor" } })).rejects.toMatchObject({ code: "GRANT_NOT_ALLOWED" });
    expect((await runtime.approvals.get(approval.id))!.status).toBe("pending");
    expect(await runtime.grants.list()).toEqual([]);
    expect(await runtime.grants.get("grt_x")).toBeNull();
    await expect(runtime.grants.revoke("grt_x", { by: PRIYA })).rejects.toMatchObject({ code: "GRANT_NOT_FOUND" });
  });
});

describe("conversations", () => {
  it("invoke refuses an empty conversationId as a programmer error; a request keeps the conversation", async () => {
    const { runtime } = setup();
    await expect(runtime.invoke("refund", { customerId: "c", amount: 1 }, { actor: DANA, context: ctx, conversationId: "" })).rejects.toThrow(TypeError);
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c", amount: 1 }, { actor: DANA, context: ctx, conversationId: "chat_1" }));
    expect(approval.conversationId).toBe("chat_1");
    expect((await runtime.approvals.get(approval.id))!.conversationId).toBe("chat_1");
  });

  it("on resume, a late execution-phase demand is judged in the record's conversation", async () => {
    const cfo = definePolicy("cfo-over-100", (req) => ((req.input as { amount: number }).amount > 100 ? requireApproval({ reason: "CFO.", approvalType: "cfo" }) : allow()), {
      phases: ["execution"],
    });
    const { runtime, calls } = setup({ policies: [cfo] });
    const approval = approvalOf(await runtime.invoke("refund", { customerId: "c", amount: 500 }, { actor: DANA, context: ctx, surface: "aiSdk", conversationId: "chat_1" }));
    // No grant yet: the manager approves; the late cfo demand asks again on resume.
    await runtime.approvals.decide(approval.id, { status: "approved", approver: PRIYA });
    await runtime.grants.issue({ capabilityId: "refund", actor: DANA, surface: "aiSdk", conversationId: "chat_2", types: ["manager", "cfo"], issuers: [PRIYA], grant: { uses: 1, ttlMs: HOUR, scope: "conversation" } });
    expect((await runtime.resume(approval.id, { context: ctx })).status).toBe("approval-required");
    const second = approvalOf(await runtime.invoke("refund", { customerId: "c", amount: 500 }, { actor: DANA, context: ctx, surface: "aiSdk", conversationId: "chat_1" }));
    await runtime.approvals.decide(second.id, { status: "approved", approver: PRIYA });
    await runtime.grants.issue({ capabilityId: "refund", actor: DANA, surface: "aiSdk", conversationId: "chat_1", types: ["manager", "cfo"], issuers: [PRIYA], grant: { uses: 1, ttlMs: HOUR, scope: "conversation" } });
    expect((await runtime.resume(second.id, { context: ctx })).status).toBe("completed");
    expect(calls).toHaveLength(1);
  });
});

describe("with approvals.seal", () => {
  it("grants are sealed, read back verified, and cover", async () => {
    const { runtime } = setup({ approvals: { seal: { keys: [{ id: "k1", secret: "a-grant-seal-secret-of-at-least-32-bytes!" }] } } });
    const grant = await issueFor(runtime);
    expect(grant.seal).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{43}$/);
    expect((await runtime.grants.get(grant.id))!.id).toBe(grant.id);
    expect((await runtime.invoke("refund", { customerId: "c", amount: 1 }, { actor: DANA, context: ctx })).status).toBe("completed");
  });
});
