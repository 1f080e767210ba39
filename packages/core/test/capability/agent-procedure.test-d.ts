import { call, os, ORPCError } from "@orpc/server";
import type { Builder, BuilderWithMiddlewares, Schema } from "@orpc/server";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { agentProcedure } from "../../src/capability/agent-procedure.js";
import type { AgentInvocationInfo, AgentMeta } from "../../src/capability/types.js";

const agent: AgentMeta = { description: "Refund an order", expose: { aiSdk: true }, sideEffect: "write", risk: "high" };

describe("agentProcedure types", () => {
  it("adds agent to meta and to the initial and current contexts of os", () => {
    expectTypeOf(agentProcedure(os)).toEqualTypeOf<
      Builder<
        Record<never, never> & { agent?: AgentInvocationInfo },
        Record<never, never> & { agent?: AgentInvocationInfo },
        Schema<unknown, unknown>,
        Schema<unknown, unknown>,
        Record<never, never>,
        Record<never, never> & { agent?: AgentMeta }
      >
    >();
  });

  it("keeps input, output and handler types through input().meta().handler()", () => {
    const refund = agentProcedure(os)
      .input(z.object({ orderId: z.string(), cents: z.number().default(0) }))
      .meta({ agent })
      .handler(({ input, context }) => {
        expectTypeOf(input).toEqualTypeOf<{ orderId: string; cents: number }>();
        expectTypeOf(context.agent).toEqualTypeOf<AgentInvocationInfo | undefined>();
        expectTypeOf(context.agent?.actor.kind).toEqualTypeOf<
          "user" | "service" | "automation" | "anonymous" | undefined
        >();
        return { refunded: input.cents };
      });

    expectTypeOf(refund["~orpc"].meta.agent).toEqualTypeOf<AgentMeta | undefined>();
    // The caller's input type is the schema input (cents optional), the output the handler's.
    expectTypeOf(call(refund, { orderId: "o1" })).resolves.toEqualTypeOf<{ refunded: number }>();
    // ctx.agent is optional in the initial context: plain oRPC calls need not pass it.
    expectTypeOf(call(refund, { orderId: "o1" }, { context: {} })).resolves.toEqualTypeOf<{ refunded: number }>();
  });

  it("checks .meta({ agent }) against AgentMeta", () => {
    const ap = agentProcedure(os);
    // @ts-expect-error sideEffect must be a SideEffect
    ap.meta({ agent: { ...agent, sideEffect: "delete" } });
    // @ts-expect-error expose values are booleans
    ap.meta({ agent: { ...agent, expose: { mcp: 1 } } });
    // @ts-expect-error description is required
    ap.meta({ agent: { expose: {}, sideEffect: "read", risk: "low" } });
    expectTypeOf(ap.meta).parameter(0).toEqualTypeOf<Record<never, never> & { agent?: AgentMeta }>();
  });

  it("keeps the application context of $context alongside ctx.agent", () => {
    const ap = agentProcedure(os.$context<{ db: { orders: string[] } }>());
    ap.handler(({ context }) => {
      expectTypeOf(context.db).toEqualTypeOf<{ orders: string[] }>();
      expectTypeOf(context.agent).toEqualTypeOf<AgentInvocationInfo | undefined>();
    });
    const proc = ap.handler(() => 1);
    // The application context stays required for callers.
    // @ts-expect-error db is missing from the context
    call(proc, undefined, { context: {} });
    expectTypeOf(call(proc, undefined, { context: { db: { orders: [] } } })).resolves.toEqualTypeOf<number>();
  });

  it("keeps the application meta of $meta alongside agent", () => {
    const ap = agentProcedure(os.$meta<{ audited?: boolean }>({}));
    expectTypeOf(ap.meta).parameter(0).toEqualTypeOf<{ audited?: boolean } & Record<never, never> & { agent?: AgentMeta }>();
    ap.meta({ audited: true, agent });
  });

  it("accepts a builder with middlewares and keeps the middleware context", () => {
    const authed = os.use(({ next }) => next({ context: { user: { id: "u1" } } }));
    const ap = agentProcedure(authed);
    expectTypeOf(ap).toMatchTypeOf<BuilderWithMiddlewares<any, any, any, any, any, any>>();
    ap.meta({ agent }).handler(({ context }) => {
      expectTypeOf(context.user).toEqualTypeOf<{ id: string }>();
      expectTypeOf(context.agent).toEqualTypeOf<AgentInvocationInfo | undefined>();
    });
  });

  it("keeps the declared error map", () => {
    agentProcedure(os.errors({ OUT_OF_STOCK: { message: "Out of stock" } })).handler(({ errors }) => {
      expectTypeOf(errors.OUT_OF_STOCK).returns.toMatchTypeOf<ORPCError<"OUT_OF_STOCK", any>>();
      expectTypeOf(errors.OUT_OF_STOCK).returns.toHaveProperty("code").toEqualTypeOf<"OUT_OF_STOCK">();
    });
  });

  it("middlewares added after agentProcedure see ctx.agent", () => {
    agentProcedure(os).use(({ context, next }) => {
      expectTypeOf(context.agent).toEqualTypeOf<AgentInvocationInfo | undefined>();
      return next();
    });
  });

  it("rejects things that are not oRPC builders", () => {
    // @ts-expect-error a plain object is not a builder
    agentProcedure({ handler: () => 1 });
  });
});
