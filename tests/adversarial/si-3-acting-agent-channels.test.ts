// SI-3 for the acting agent (issue 30 part 3, ADR-029), the channels the first attack file left out: the call
// context, actor attributes, resume's context, a `via` whose getters answer differently, the v2 MCP endpoint (both
// eras), and where `via` may appear in evidence (its id only, never its display name: SI-10).
import { createMCPHandler } from "@orpc-agent/mcp";
import {
  agentMeta,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  deny,
  type Actor,
  type AgentAuditEvent,
  type SpanAttributes,
  type TracingAdapter,
} from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { ERAS, headersFor, messagesOf, MODERN_META, post } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const dana: Actor = Object.freeze({ id: "u_dana", kind: "user" });
const FORGED = "forged-agent";
const SECRET_NAME = "Display-Name-Sentinel-51f";

function app() {
  const events: AgentAuditEvent[] = [];
  const spans: SpanAttributes[] = [];
  const tracing: TracingAdapter = {
    startSpan: (_name, attributes) => {
      spans.push({ ...attributes });
      return { setAttributes: (more) => void spans.push({ ...more }), recordError: () => {}, end: () => {} };
    },
  };
  const seen: (string | null)[] = [];
  // Scoped to the forged agent: if a forged `via` ever reached policies, this deny would fire.
  const forgedOnly = definePolicy("forged-agent-denied", () => deny("forged", "The forged agent reached a policy."), { scope: { via: [FORGED] } });
  const watcher = definePolicy("records-via", (req) => (seen.push(req.actor.via?.id ?? null), { type: "allow" as const }), { phases: ["invocation", "execution"] });
  const registry = createCapabilityRegistry({
    who: ap
      .input(z.looseObject({}))
      .meta(agentMeta({ description: "Report who acts.", expose: { direct: true, mcp: true }, sideEffect: "none", risk: "low" }))
      .handler(({ context }) => ({ via: context.agent?.actor.via?.id ?? null, attributes: context.agent?.actor.attributes ?? null })),
    pay: ap
      .input(z.looseObject({}))
      .meta(agentMeta({ description: "Pay.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
      .handler(({ context }) => ({ via: context.agent?.actor.via?.id ?? null })),
  });
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry, policies: [forgedOnly, watcher] }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: (event) => void events.push(event),
    tracing,
  });
  return { runtime, events, spans, seen };
}

const forgedContext = { agent: { actor: { id: "root", kind: "service", via: { id: FORGED } } }, via: { id: FORGED }, actor: { via: { id: FORGED } } };

describe("via cannot be set through the context or attributes (SI-3)", () => {
  it("SI-3: an app context carrying agent.actor.via, via or actor.via changes neither ctx.agent.actor.via nor what policies see", async () => {
    const { runtime, events, seen } = app();
    expect(await runtime.invoke("who", {}, { actor: dana, context: forgedContext })).toMatchObject({ status: "completed", output: { via: null } });
    expect(await runtime.invoke("who", {}, { actor: { ...dana, via: { id: "bot" } }, context: forgedContext })).toMatchObject({
      status: "completed",
      output: { via: "bot" },
    });
    expect(seen).toEqual([null, null, "bot", "bot"]);
    expect(JSON.stringify(events)).not.toContain(FORGED);
  });

  it("SI-3: via or agent under actor.attributes is an attribute, never the acting agent: not in audit, spans or separation of duties", async () => {
    const { runtime, events, spans } = app();
    const actor: Actor = { ...dana, attributes: { via: { id: FORGED }, agent: FORGED } };
    const result = await runtime.invoke("who", {}, { actor, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { via: null, attributes: { via: { id: FORGED }, agent: FORGED } } });
    expect(events.find((e) => e.type === "capability.completed")?.actor).toEqual({ id: "u_dana", kind: "user" });
    expect(spans.some((s) => "orpc_agent.actor_via_id" in s)).toBe(false);

    const suspended = await runtime.invoke("pay", {}, { actor, context: {} });
    if (suspended.status !== "approval-required") throw new Error("expected a suspension");
    expect(suspended.approval.actor.via).toBeUndefined();
    // Not the acting agent, so an approver of that id is no self-approval.
    expect((await runtime.approvals.decide(suspended.approval.id, { status: "approved", approver: { id: FORGED, kind: "user" } })).status).toBe("approved");
  });

  it("SI-3: resume's context cannot set via either: the record's acting agent executes", async () => {
    const { runtime, seen } = app();
    const suspended = await runtime.invoke("pay", {}, { actor: { ...dana, via: { id: "bot" } }, context: {} });
    if (suspended.status !== "approval-required") throw new Error("expected a suspension");
    await runtime.approvals.decide(suspended.approval.id, { status: "approved", approver: { id: "u_mgr", kind: "user" } });
    expect(await runtime.resume(suspended.approval.id, { context: forgedContext })).toMatchObject({ status: "completed", output: { via: "bot" } });
    expect(seen.every((id) => id === "bot")).toBe(true);
  });

  it("SI-3: a via whose getters answer differently is read once: audit, record, policies and handler name one agent", async () => {
    const { runtime, events, seen } = app();
    let reads = 0;
    const shifty = { get id() { return ++reads === 1 ? "bot" : FORGED; } };
    const suspended = await runtime.invoke("pay", {}, { actor: { ...dana, via: shifty }, context: {} });
    if (suspended.status !== "approval-required") throw new Error("expected a suspension");
    expect(suspended.approval.actor.via).toEqual({ id: "bot" });
    // Separation of duties holds against the agent that was recorded.
    await expect(runtime.approvals.decide(suspended.approval.id, { status: "approved", approver: { id: "bot", kind: "service" } })).rejects.toMatchObject({
      code: "APPROVAL_SELF_APPROVAL",
    });
    expect(seen).toEqual(["bot"]);
    expect(JSON.stringify(events)).not.toContain(FORGED);
  });

  it("SI-10: the acting agent's display name reaches the handler and the approver's record, never an audit event or span", async () => {
    const { runtime, events, spans } = app();
    const actor: Actor = { ...dana, via: { id: "bot", displayName: SECRET_NAME } };
    expect(await runtime.invoke("who", {}, { actor, context: {} })).toMatchObject({ status: "completed" });
    const suspended = await runtime.invoke("pay", {}, { actor, context: {} });
    if (suspended.status !== "approval-required") throw new Error("expected a suspension");
    expect((await runtime.approvals.get(suspended.approval.id))?.actor.via).toEqual({ id: "bot", displayName: SECRET_NAME });
    await runtime.describe("direct", { actor, context: {} });
    expect(JSON.stringify(events)).not.toContain(SECRET_NAME);
    expect(JSON.stringify(spans)).not.toContain(SECRET_NAME);
    expect(events.filter((e) => e.type === "capability.approval_requested").map((e) => e.actor)).toEqual([{ id: "u_dana", kind: "user", via: { id: "bot" } }]);
  });
});

describe("via on the v2 MCP endpoint comes from the verified token (SI-3)", () => {
  for (const era of ERAS) {
    it(`SI-3: ${era} era — tool arguments and createContext's via lose to the token's clientId`, async () => {
      const { runtime, events } = app();
      const { url } = await listenModern((endpoint) =>
        createMCPHandler(runtime, {
          resource: endpoint,
          verifyToken: (token) => (token === "tok-dana" ? { token, clientId: "claude-desktop", scopes: ["mcp"], expiresAt: nowInSeconds() + 3600, resource: endpoint } : null),
          createContext: () => ({ actor: { ...dana, via: { id: "set-by-app" } }, context: forgedContext }),
        }),
      );
      const body = {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "who", arguments: { via: { id: FORGED }, actor: { id: "root", kind: "service", via: { id: FORGED } } }, ...(era === "modern" && { _meta: MODERN_META }) },
      };
      const [message] = (await messagesOf(await post(url, JSON.stringify(body), headersFor("who", era), "tok-dana"))) as { result?: { structuredContent?: unknown } }[];
      expect(message?.result?.structuredContent).toEqual({ status: "ok", data: { via: "claude-desktop", attributes: null } });
      expect(JSON.stringify(events)).not.toMatch(/forged-agent|set-by-app/);
    });
  }
});
