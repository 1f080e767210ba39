// SI-3 for the acting agent (issue 30 part 3): `actor.via` comes from transport authentication or the host's options,
// never from tool arguments, on every surface; it cannot change between request and resume; and the agent that carried
// a request can never approve it (SI-4, separation of duties).
import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type Actor,
  type AgentAuditEvent,
  type SpanAttributes,
  type TracingAdapter,
} from "@orpc-agent/core";
import { toAISDKTools } from "@orpc-agent/ai-sdk";
import { createMCPHttpHandler, createMCPServer } from "@orpc-agent/mcp/v1";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { connectHttp, listen } from "../../packages/mcp/test/support/http.js";
import { connectInMemory, tokenFor } from "../../packages/mcp/test/support/in-memory.js";

closeEverythingAfterEachTest();

const ap = agentProcedure(os);
const dana: Actor = Object.freeze({ id: "u_dana", kind: "user" });
const bot = Object.freeze({ id: "support-bot" });
const FORGED = { via: { id: "forged-agent" }, actor: { id: "root", kind: "service", via: { id: "forged-agent" } } };

function app() {
  const events: AgentAuditEvent[] = [];
  const spans: SpanAttributes[] = [];
  const tracing: TracingAdapter = {
    startSpan: (name, attributes) => {
      if (name === "agent.capability_call") spans.push({ ...attributes });
      return { setAttributes: () => {}, recordError: () => {}, end: () => {} };
    },
  };
  const coordinator = createInMemoryApprovalCoordinator();
  const registry = createCapabilityRegistry({
    agent: {
      who: ap
        .input(z.looseObject({}))
        .meta({ agent: { description: "Report who acts.", expose: { direct: true, aiSdk: true, mcp: true }, sideEffect: "none", risk: "low" } })
        .handler(({ context }) => ({ actor: context.agent?.actor.id, via: context.agent?.actor.via?.id ?? null })),
      refund: ap
        .input(z.looseObject({ amount: z.number() }))
        .meta({
          agent: {
            description: "Refund.",
            expose: { direct: true, aiSdk: true, mcp: true },
            sideEffect: "write",
            risk: "high",
            approval: { required: true },
          },
        })
        .handler(({ context }) => ({ via: context.agent?.actor.via?.id ?? null })),
    },
  });
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry }),
    approvals: { coordinator },
    audit: (event) => void events.push(event),
    tracing,
  });
  return { runtime, events, spans, coordinator };
}

describe("the acting agent comes from authentication, never from arguments (SI-3)", () => {
  it("SI-3: direct invoke — `via` and `actor` fields in the input change neither ctx.agent.actor.via nor the audit", async () => {
    const { runtime, events, spans } = app();
    const plain = await runtime.invoke("agent.who", FORGED, { actor: dana, context: {} });
    expect(plain).toMatchObject({ status: "completed", output: { actor: "u_dana", via: null } });
    const carried = await runtime.invoke("agent.who", FORGED, { actor: { ...dana, via: bot }, context: {} });
    expect(carried).toMatchObject({ status: "completed", output: { actor: "u_dana", via: "support-bot" } });
    expect(JSON.stringify(events)).not.toContain("forged-agent");
    expect(events.filter((e) => e.type === "capability.completed").map((e) => e.actor)).toEqual([
      { id: "u_dana", kind: "user" },
      { id: "u_dana", kind: "user", via: { id: "support-bot" } },
    ]);
    expect(spans.map((s) => s["orpc_agent.actor_via_id"])).toEqual([undefined, "support-bot"]);
  });

  it("SI-3: a malformed via is no trustworthy actor: UNAUTHENTICATED, the handler never runs", async () => {
    const { runtime } = app();
    for (const via of [{ id: "" }, "support-bot", { id: 7 }, null]) {
      const result = await runtime.invoke("agent.who", {}, { actor: { ...dana, via } as never, context: {} });
      expect(result).toMatchObject({ status: "failed", error: { code: "UNAUTHENTICATED" } });
    }
  });

  it("SI-3: ai-sdk — the host's `via` option is the acting agent; tool arguments cannot set or change it", async () => {
    const { runtime, events } = app();
    const withAgent = await toAISDKTools(runtime, { actor: dana, via: bot, context: {} });
    const withoutAgent = await toAISDKTools(runtime, { actor: dana, context: {} });
    const run = (tools: typeof withAgent) => (tools.agent_who!.execute as unknown as (input: unknown, options?: unknown) => Promise<unknown>)(FORGED, { toolCallId: "t1", messages: [] });
    expect(await run(withAgent)).toEqual({ status: "ok", data: { actor: "u_dana", via: "support-bot" } });
    expect(await run(withoutAgent)).toEqual({ status: "ok", data: { actor: "u_dana", via: null } });
    expect(JSON.stringify(events)).not.toContain("forged-agent");
    await expect(toAISDKTools(runtime, { actor: dana, via: { id: "" }, context: {} })).rejects.toThrow(/options.via must be/);
  });

  it("SI-3: mcp over HTTP — via is the verified token's clientId, replacing createContext's and ignoring arguments", async () => {
    const { runtime, events } = app();
    const handler = createMCPHttpHandler(runtime, {
      verifyToken: (token) => (token === "tok-dana" ? { token, clientId: "claude-desktop", scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 } : null),
      createContext: () => ({ actor: { ...dana, via: { id: "set-by-app" } }, context: {} }),
    });
    const { url } = await listen(handler);
    const session = await connectHttp(url, "tok-dana");
    const result = await session.client.callTool({ name: "agent_who", arguments: FORGED });
    expect(result.structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", via: "claude-desktop" } });
    expect(JSON.stringify(events)).not.toMatch(/forged-agent|set-by-app/);
  });

  it("SI-3: mcp without verified auth info (stdio) — createContext's via stands; arguments still change nothing", async () => {
    const { runtime } = app();
    const mcp = createMCPServer(runtime, { createContext: () => ({ actor: { ...dana, via: { id: "local-cli" } }, context: {} }) });
    const session = await connectInMemory(mcp);
    const result = await session.client.callTool({ name: "agent_who", arguments: FORGED });
    expect(result.structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", via: "local-cli" } });
    const stranger = createMCPServer(runtime, { createContext: () => ({ actor: dana, context: {} }) });
    const second = await connectInMemory(stranger, tokenFor("t", { clientId: "" }));
    expect((await second.client.callTool({ name: "agent_who", arguments: FORGED })).structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", via: null } });
  });
});

describe("the acting agent cannot change between request and resume (SI-3)", () => {
  async function requested() {
    const fixture = app();
    const first = await fixture.runtime.invoke("agent.refund", { amount: 5 }, { actor: { ...dana, via: bot }, context: {} });
    if (first.status !== "approval-required") throw new Error(`expected a suspension, got ${first.status}`);
    expect(first.approval.actor.via).toEqual({ id: "support-bot" });
    return { ...fixture, approvalId: first.approval.id };
  }

  it("SI-3: the approver sees the acting agent on the request, and resume runs with the record's, whatever the guard omits", async () => {
    const { runtime, approvalId, events } = await requested();
    expect((await runtime.approvals.get(approvalId))?.actor).toEqual({ id: "u_dana", kind: "user", via: { id: "support-bot" } });
    expect(events.find((e) => e.type === "capability.approval_requested")?.actor).toEqual({ id: "u_dana", kind: "user", via: { id: "support-bot" } });
    await runtime.approvals.decide(approvalId, { status: "approved", approver: { id: "u_manager", kind: "user" } });
    const resumed = await runtime.resume(approvalId, { context: {}, expectedActor: dana });
    expect(resumed).toMatchObject({ status: "completed", output: { via: "support-bot" } });
  });

  it("SI-3: a resume guard naming another acting agent is a mismatch, and the approval stays unconsumed", async () => {
    const { runtime, approvalId } = await requested();
    await runtime.approvals.decide(approvalId, { status: "approved", approver: { id: "u_manager", kind: "user" } });
    const other = await runtime.resume(approvalId, { context: {}, expectedActor: { ...dana, via: { id: "other-agent" } } });
    expect(other).toMatchObject({ status: "failed", error: { code: "APPROVAL_RESUME_MISMATCH" } });
    expect((await runtime.approvals.get(approvalId))?.status).toBe("approved");
    expect(await runtime.resume(approvalId, { context: {}, expectedActor: { ...dana, via: bot } })).toMatchObject({ status: "completed", output: { via: "support-bot" } });
  });
});

describe("separation of duties: the acting agent never approves what it carried (SI-4)", () => {
  it("SI-4: runtime.approvals.decide by the acting agent's identity is refused and the record stays pending", async () => {
    const { runtime, events } = app();
    const first = await runtime.invoke("agent.refund", { amount: 5 }, { actor: { ...dana, via: bot }, context: {} });
    if (first.status !== "approval-required") throw new Error("expected a suspension");
    await expect(runtime.approvals.decide(first.approval.id, { status: "approved", approver: { id: "support-bot", kind: "service" } })).rejects.toMatchObject({
      code: "APPROVAL_SELF_APPROVAL",
    });
    expect((await runtime.approvals.get(first.approval.id))?.status).toBe("pending");
    expect(events.filter((e) => e.type === "capability.approved")).toEqual([]);
    await runtime.approvals.decide(first.approval.id, { status: "approved", approver: { id: "u_manager", kind: "user" } });
    expect(await runtime.resume(first.approval.id, { context: {} })).toMatchObject({ status: "completed" });
  });

  it("SI-4: an approval by the acting agent written straight into the coordinator fails at resume (R4)", async () => {
    const { runtime, coordinator } = app();
    const first = await runtime.invoke("agent.refund", { amount: 5 }, { actor: { ...dana, via: bot }, context: {} });
    if (first.status !== "approval-required") throw new Error("expected a suspension");
    await coordinator.decide(first.approval.id, { status: "approved", approver: { id: "support-bot", kind: "service" } });
    expect(await runtime.resume(first.approval.id, { context: {} })).toMatchObject({ status: "failed", error: { code: "APPROVAL_SELF_APPROVAL" } });
    expect((await coordinator.get(first.approval.id))?.status).toBe("approved");
  });

  it("SI-4: an inline approval by the acting agent fails, even for a requester-confirmable type", async () => {
    const registry = createCapabilityRegistry({
      pay: ap
        .input(z.object({}))
        .meta({ agent: { description: "Pay.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true, type: "confirmation" } } })
        .handler(() => "paid"),
    });
    const runtime = createAgentRuntime({
      governance: defineGovernance({ registry }),
      audit: () => {},
      approvals: { requesterConfirmable: ["confirmation"], handler: async () => ({ status: "approved", approver: { id: "support-bot", kind: "service" } }) },
    });
    expect(await runtime.invoke("pay", {}, { actor: { ...dana, via: bot }, context: {} })).toMatchObject({
      status: "failed",
      error: { code: "APPROVAL_SELF_APPROVAL" },
    });
  });
});
