// issue 27: the testing guide's "A model in the loop" — toAISDKTools under the real generateText loop, driven by
// the AI SDK's own MockLanguageModelV3 (`ai/test`, ai 6 and later). Same scripted responses as the guide; on the
// v5 leg the guide's claim that `ai/test` has only the v2 mock is what is checked.
import { os } from "@orpc/server";
import { generateText, stepCountIs } from "ai";
import * as aiTest from "ai/test";
import { z } from "zod";
import { expect, it } from "vitest";
import { agentMeta, agentProcedure, createAgentRuntime, createCapabilityRegistry, createInMemoryApprovalCoordinator, defineGovernance, definePolicy, deny, type AgentAuditEvent } from "@orpc-agent/core";
import { toAISDKTools, type AISDKToolResult } from "../src/index.js";

const MAJOR = process.env.ORPC_AGENT_AI_MAJOR ?? "5";

type Mock = { doGenerateCalls: { prompt: unknown }[] };
type MockConstructor = new (options: { doGenerate: unknown[] }) => Mock;
const MockLanguageModelV3 = (aiTest as Record<string, unknown>).MockLanguageModelV3 as MockConstructor | undefined;

function governance(handlerRuns: string[]) {
  const ap = agentProcedure(os as unknown as Parameters<typeof agentProcedure>[0]);
  return defineGovernance({
    registry: createCapabilityRegistry({
      accounts: {
        close: ap
          .input(z.object({ accountId: z.string() }))
          .meta(agentMeta({ description: "Close an account.", expose: { aiSdk: true, direct: true }, sideEffect: "destructive", risk: "high" }))
          .handler(({ input }) => (handlerRuns.push(input.accountId), { closed: input.accountId })),
      },
    }),
    policies: [definePolicy("no-model-closures", () => deny("NO", "Ask a person to close accounts."), { scope: { capabilities: { sideEffects: ["destructive"] }, surfaces: ["aiSdk", "mcp"] } })],
  });
}

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

it(`MockLanguageModelV3 drives toAISDKTools (ai ${MAJOR}): the model reads the denial as the envelope, the handler never runs`, async () => {
  if (MAJOR === "5") {
    // The guide says ai 5's `ai/test` has only the v2 mock.
    expect(MockLanguageModelV3).toBeUndefined();
    expect("MockLanguageModelV2" in aiTest).toBe(true);
    return;
  }
  const handlerRuns: string[] = [];
  const events: AgentAuditEvent[] = [];
  const audit = (event: AgentAuditEvent) => void events.push(event);
  const runtime = createAgentRuntime({ governance: governance(handlerRuns), audit, approvals: { coordinator: createInMemoryApprovalCoordinator() } });
  const tools = await toAISDKTools(runtime, { actor: { id: "u_ops", kind: "user" }, context: {} });
  const model = new MockLanguageModelV3!({
    doGenerate: [
      {
        content: [{ type: "tool-call", toolCallId: "call_1", toolName: "accounts_close", input: JSON.stringify({ accountId: "a1" }) }],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      },
      { content: [{ type: "text", text: "I cannot close accounts." }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] },
    ],
  });
  const result = await generateText({ model: model as never, tools, prompt: "Close account a1.", stopWhen: stepCountIs(3) });
  const output = result.steps[0]?.toolResults[0]?.output as AISDKToolResult;
  expect(output).toEqual({ status: "error", error: { code: "POLICY_DENIED", message: "Ask a person to close accounts.", retryable: false } });
  expect(JSON.stringify(model.doGenerateCalls[1]?.prompt)).toContain("Ask a person to close accounts.");
  expect(result.text).toBe("I cannot close accounts.");
  expect(handlerRuns).toEqual([]);
  expect(events.find((event) => event.type === "capability.denied")?.data).toMatchObject({ reason: "policy-denied" });
});
