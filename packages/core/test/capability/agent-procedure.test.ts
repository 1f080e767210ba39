import { call, os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { agentProcedure } from "../../src/capability/agent-procedure.js";
import { agentMeta } from "@orpc-agent/core";

describe("agentProcedure", () => {
  it("returns the very builder it is given", () => {
    expect(agentProcedure(os)).toBe(os);
    const withContext = os.$context<{ db: string }>();
    expect(agentProcedure(withContext)).toBe(withContext);
    const withMiddleware = os.use(({ next }) => next());
    expect(agentProcedure(withMiddleware)).toBe(withMiddleware);
  });

  it("builds ordinary oRPC procedures that keep agent meta and run without ctx.agent", async () => {
    const refund = agentProcedure(os)
      .input(z.object({ orderId: z.string() }))
      .meta(agentMeta({ description: "Refund", expose: { mcp: true }, sideEffect: "write", risk: "high" }))
      .handler(({ input, context }) => ({ orderId: input.orderId, actor: context.agent?.actor.id ?? null }));

    expect(refund["~orpc"].meta.agent?.description).toBe("Refund");
    await expect(call(refund, { orderId: "o1" })).resolves.toEqual({ orderId: "o1", actor: null });
  });
});
