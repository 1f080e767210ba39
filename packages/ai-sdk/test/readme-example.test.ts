// The README's example is this region, verbatim except for two lines the last test below accounts for: the
// package imports itself by path (its tsconfig cannot resolve its own name), and `os` is cast because this
// package resolves @orpc/server from the workspace root, a second install typed apart from core's.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { scriptedModel, text, toolCall, toolResultsSent } from "./support/scripted-model.js";

// --- README example: start
import { os } from "@orpc/server";
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { z } from "zod";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type Actor,
  type AgentAuditEvent,
} from "@orpc-agent/core";
import { toAISDKTools } from "../src/index.js";

const ap = agentProcedure(os as unknown as Parameters<typeof agentProcedure>[0]);
const registry = createCapabilityRegistry({
  orders: {
    get: ap
      .input(z.object({ orderId: z.string() }))
      .meta(agentMeta({ description: "Read an order.", expose: { aiSdk: true }, sideEffect: "read", risk: "low" }))
      .handler(({ input }) => ({ orderId: input.orderId, total: 649 })),
    refund: ap
      .input(z.object({ orderId: z.string(), amount: z.number().positive() }))
      .meta(agentMeta({
        description: "Refund an order.",
        expose: { aiSdk: true },
        sideEffect: "write",
        risk: "high",
        approval: { required: true },
      }))
      .handler(({ input }) => ({ refunded: input.amount })),
  },
});

export const auditEvents: AgentAuditEvent[] = []; // ship these to your audit store instead
export const runtime = createAgentRuntime({
  governance: defineGovernance({ registry }),
  approvals: { coordinator: createInMemoryApprovalCoordinator() }, // a durable coordinator in production
  audit: (event) => void auditEvents.push(event),
});

/** In the authenticated chat handler: one tool set per request, bound to the session's actor. */
export async function chat(model: LanguageModel, actor: Actor, prompt: string) {
  const tools = await toAISDKTools(runtime, { actor, context: {} });
  return generateText({ model, tools, prompt, stopWhen: stepCountIs(5) });
}

/** In the approvals UI, later: a manager decides, then the app runs the suspended call once. */
export async function approveAndRun(approvalId: string, manager: Actor) {
  await runtime.approvals.decide(approvalId, { status: "approved", approver: manager });
  return runtime.resume(approvalId, { context: {} });
}
// --- README example: end

it("the README example: the model reads an order, the refund waits for a manager, the app runs it once", async () => {
  const dana: Actor = { id: "u_dana", kind: "user" };
  const { model, calls } = scriptedModel([
    [toolCall("call_1", "orders_get", { orderId: "o1" })],
    [toolCall("call_2", "orders_refund", { orderId: "o1", amount: 649 })],
    [text("Your refund is waiting for a manager.")],
  ]);

  const result = await chat(model, dana, "Refund order o1, it arrived broken.");
  expect(result.text).toBe("Your refund is waiting for a manager.");
  const [pending] = toolResultsSent(calls[2]!).filter((sent) => sent.toolCallId === "call_2");
  const envelope = (pending!.output as { value: { status: string; approvalId: string; message: string } }).value;
  expect(envelope).toEqual({ status: "approval-required", approvalId: expect.stringMatching(/^apr_/), message: "Awaiting approval: Approval is required for orders.refund." });

  const outcome = await approveAndRun(envelope.approvalId, { id: "u_priya", kind: "user" });
  expect(outcome).toMatchObject({ status: "completed", output: { refunded: 649 } });
  expect(auditEvents.filter((event) => event.capabilityId === "orders.refund").map((event) => event.type)).toEqual([
    "capability.requested",
    "capability.approval_requested",
    "capability.approved",
    "capability.started",
    "capability.completed",
  ]);
});

it("the README shows exactly this example", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const shown = /## Example[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  const source = readFileSync(new URL(import.meta.url), "utf8");
  const region = /\/\/ --- README example: start\n([\s\S]*?)\/\/ --- README example: end\n/.exec(source)?.[1];
  expect(region).toBeDefined();
  const asPublished = region!
    .replace('from "../src/index.js"', 'from "@orpc-agent/ai-sdk"')
    .replace("agentProcedure(os as unknown as Parameters<typeof agentProcedure>[0])", "agentProcedure(os)");
  expect(shown).toBe(asPublished);
});
