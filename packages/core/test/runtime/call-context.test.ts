import { call, os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { agentMeta, agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentInvocationInfo } from "../../src/index.js";
import { dana } from "./execution-harness.js";

const seen: { context: unknown }[] = [];
const middlewareSaw: (AgentInvocationInfo | undefined)[] = [];

const base = agentProcedure(os.$context<Record<string, unknown>>());
const withMiddleware = base.use(({ context, next }) => {
  middlewareSaw.push(context.agent);
  return next();
});
const meta = agentMeta({ description: "Echo the context.", expose: { direct: true, mcp: true }, sideEffect: "read", risk: "low" });

const echo = base.meta(meta).handler(({ context }) => {
  seen.push({ context });
  return "ok";
});
const registry = createCapabilityRegistry({
  echo,
  guarded: withMiddleware.meta(meta).handler(({ context }) => {
    seen.push({ context });
    return "ok";
  }),
});
const runtime = createAgentRuntime({ governance: defineGovernance({ registry }) });

async function contextFor(context: unknown, extra: { correlationId?: string; idempotencyKey?: string; surface?: "mcp" } = {}) {
  seen.length = 0;
  const result = await runtime.invoke("echo", undefined, { actor: dana, context, ...extra });
  expect(result.status).toBe("completed");
  expect(seen).toHaveLength(1);
  return { ctx: seen[0]!.context as Record<string, unknown> & { agent: AgentInvocationInfo }, result };
}

describe("stage 11 call context (core.md §6.1, §1.2)", () => {
  it("ctx.agent carries executionId, capabilityId, surface, actor, correlationId and the given idempotencyKey", async () => {
    const { ctx, result } = await contextFor({ tenant: "t1" }, { correlationId: "corr-1", idempotencyKey: "idem-1", surface: "mcp" });
    expect(ctx.agent).toEqual({
      executionId: result.executionId,
      capabilityId: "echo",
      surface: "mcp",
      actor: dana,
      correlationId: "corr-1",
      idempotencyKey: "idem-1",
      reportProgress: expect.any(Function),
    });
    expect(ctx.tenant).toBe("t1");
  });

  it("without an idempotencyKey option, a fresh idk_ key is minted per execution and correlationId is absent", async () => {
    const first = (await contextFor({})).ctx.agent;
    const second = (await contextFor({})).ctx.agent;
    expect(first.idempotencyKey).toMatch(/^idk_[0-9a-f-]{36}$/);
    expect(second.idempotencyKey).toMatch(/^idk_/);
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
    expect("correlationId" in first).toBe(false);
    expect("approval" in first).toBe(false);
    expect(first.surface).toBe("direct");
  });

  it("a minted idempotencyKey reads the same every time and travels with spreads and JSON", async () => {
    const { agent } = (await contextFor({})).ctx;
    const key = agent.idempotencyKey;
    expect(agent.idempotencyKey).toBe(key);
    expect({ ...agent }.idempotencyKey).toBe(key);
    expect(JSON.parse(JSON.stringify(agent)).idempotencyKey).toBe(key);
    expect(Object.keys(agent)).toContain("idempotencyKey");
    expect(Object.getOwnPropertySymbols(agent)).toEqual([]);
  });

  it("every execution's minted key comes from one shared getter, so ctx.agent stays a fast object (issue 28)", async () => {
    const [a, b] = [(await contextFor({})).ctx.agent, (await contextFor({})).ctx.agent];
    const getter = (o: object) => Object.getOwnPropertyDescriptor(o, "idempotencyKey")?.get;
    expect(getter(a)).toBeTypeOf("function");
    expect(getter(b)).toBe(getter(a));
    expect(b.idempotencyKey).not.toBe(a.idempotencyKey);
  });

  it("the caller's context object is not mutated and is not the object the procedure receives", async () => {
    const context = { tenant: "t1", nested: { a: 1 } };
    const { ctx } = await contextFor(context);
    expect(context).toEqual({ tenant: "t1", nested: { a: 1 } });
    expect("agent" in context).toBe(false);
    expect(ctx).not.toBe(context);
    expect(ctx.nested).toBe(context.nested);
  });

  it("a frozen caller context still works and stays untouched", async () => {
    const context = Object.freeze({ tenant: "t2" });
    const { ctx } = await contextFor(context);
    expect(ctx.tenant).toBe("t2");
    expect(ctx.agent.capabilityId).toBe("echo");
    expect(Object.keys(context)).toEqual(["tenant"]);
  });

  it("an application key named agent is shadowed for the call and kept on the caller's object", async () => {
    const context = { agent: "app-owned value", db: "db-handle" };
    const { ctx } = await contextFor(context);
    expect(ctx.agent).toMatchObject({ capabilityId: "echo", actor: dana });
    expect(ctx.db).toBe("db-handle");
    expect(context.agent).toBe("app-owned value");
  });

  it("a class-instance context keeps its prototype and own properties", async () => {
    class RequestContext {
      constructor(readonly userAgent: string) {}
      describe() {
        return `ua=${this.userAgent}`;
      }
    }
    const context = new RequestContext("curl");
    const { ctx } = await contextFor(context);
    expect(ctx).toBeInstanceOf(RequestContext);
    expect(ctx).not.toBe(context);
    expect((ctx as unknown as RequestContext).describe()).toBe("ua=curl");
    expect(ctx.agent.capabilityId).toBe("echo");
    expect("agent" in context).toBe(false);
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
    ["a string", "ctx"],
    ["a number", 42],
  ])("a non-object context (%s) becomes { agent }", async (_label, context) => {
    const { ctx } = await contextFor(context);
    expect(Object.keys(ctx)).toEqual(["agent"]);
    expect(ctx.agent.capabilityId).toBe("echo");
  });

  it("middleware on the agent path sees ctx.agent", async () => {
    middlewareSaw.length = 0;
    const result = await runtime.invoke("guarded", undefined, { actor: dana, context: {}, correlationId: "c-9" });
    expect(result.status).toBe("completed");
    expect(middlewareSaw).toHaveLength(1);
    expect(middlewareSaw[0]).toMatchObject({ executionId: result.executionId, capabilityId: "guarded", correlationId: "c-9", actor: dana });
  });

  it("a plain oRPC call of the same procedure has no ctx.agent", async () => {
    seen.length = 0;
    await call(echo, undefined, { context: { tenant: "t1" } });
    expect((seen[0]!.context as { agent?: unknown }).agent).toBeUndefined();
  });
});
