import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  type AgentMeta,
  type AgentPolicy,
  type ApprovalCoordinator,
} from "../../src/index.js";

// Issue 29, definition-bound approvals at resume: each widening kind `orpc-agent check` names (lost approval gate,
// changed side effect, lowered risk, removed, scoped-out or shadowed policy, new exposure) made between request and
// resume voids the approval, unconsumed and unrun; neutral and narrowing edits keep it.
const base = agentProcedure(os);
const seal = { keys: [{ id: "k1", secret: "a-test-only-seal-secret-of-32-bytes-or-more" }] };
const dana = { id: "dana", kind: "user" } as const;
const mo = { id: "mo", kind: "user" } as const;
const GATED: Partial<AgentMeta> = { approval: { required: true, type: "manager" } };
const check = (options: Parameters<typeof definePolicy>[2] = {}) => definePolicy("refund-limits", () => allow(), { phases: ["invocation"], ...options });

function runtimeOver(coordinator: ApprovalCoordinator, agent: Partial<AgentMeta>, policies: AgentPolicy[]) {
  const ran: number[] = [];
  const refund = base
    .input(z.object({ amount: z.number() }))
    .meta(agentMeta({ description: "Refund an order.", expose: { direct: true }, sideEffect: "destructive", risk: "high", tags: ["refunds"], ...GATED, ...agent }))
    .handler(({ input }) => (ran.push(input.amount), "refunded"));
  const governance = defineGovernance({ registry: createCapabilityRegistry({ refund }), policies });
  return { runtime: createAgentRuntime({ governance, approvals: { coordinator, seal }, audit: () => {} }), ran };
}

/** Asks and approves under the first governance, resumes under the second. */
async function requestThenResume(after: { agent?: Partial<AgentMeta>; policies?: AgentPolicy[] }) {
  const coordinator = createInMemoryApprovalCoordinator();
  const before = runtimeOver(coordinator, {}, [check()]);
  const asked = await before.runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} });
  if (asked.status !== "approval-required") throw new Error(`expected approval-required, got ${asked.status}`);
  await before.runtime.approvals.decide(asked.approval.id, { status: "approved", approver: mo });
  const later = runtimeOver(coordinator, after.agent ?? {}, after.policies ?? [check()]);
  const resumed = await later.runtime.resume(asked.approval.id, { context: {} });
  return { resumed, ran: later.ran, status: (await coordinator.get(asked.approval.id))!.status };
}

describe("definition-bound approvals at resume (issue 29)", () => {
  const widenings: [string, { agent?: Partial<AgentMeta>; policies?: AgentPolicy[] }, RegExp][] = [
    ["the approval gate removed", { agent: { approval: { required: false } } }, /approval no longer required/],
    ["a weaker side effect (destructive → write)", { agent: { sideEffect: "write" } }, /side effect destructive → write/],
    ["a lowered risk", { agent: { risk: "low" } }, /risk lowered/],
    ["the policy that applied removed", { policies: [] }, /policy no longer applies: invocation:refund-limits/],
    ["the policy scoped away from the capability", { policies: [check({ scope: { capabilities: { tags: ["other"] } } })] }, /policy no longer applies/],
    ["the policy scoped away from the request's surface", { policies: [check({ scope: { surfaces: ["mcp"] } })] }, /policy no longer applies/],
    ["the policy moved to shadow mode", { policies: [check({ mode: "shadow" })] }, /policy no longer applies/],
    ["a new exposure", { agent: { expose: { direct: true, mcp: true } } }, /now exposed on mcp/],
  ];
  for (const [what, after, change] of widenings) {
    it(`${what} voids the approval: POLICY_DENIED with the fixed message, not run, not consumed`, async () => {
      const { resumed, ran, status } = await requestThenResume(after);
      // As the model reads it: the envelope's JSON.
      expect(JSON.parse(JSON.stringify(resumed))).toMatchObject({
        status: "failed",
        error: { code: "POLICY_DENIED", message: "This operation's governance changed since the approval was requested; request the operation again." },
      });
      // What widened stays internal, on the cause.
      expect(String((resumed as { error: { cause?: unknown } }).error.cause)).toMatch(change);
      expect(ran).toEqual([]);
      expect(status).toBe("approved");
    });
  }

  const kept: [string, { agent?: Partial<AgentMeta>; policies?: AgentPolicy[] }][] = [
    ["unchanged governance", {}],
    ["a reworded description", { agent: { description: "Refund an order (reworded)." } }],
    ["a raised risk", { agent: { risk: "critical" } }],
    ["a policy added", { policies: [check(), definePolicy("extra-check", () => allow(), { phases: ["invocation"] })] }],
  ];
  for (const [what, after] of kept) {
    it(`${what} keeps the approval: it runs once`, async () => {
      const { resumed, ran, status } = await requestThenResume(after);
      expect(resumed.status).toBe("completed");
      expect(ran).toEqual([5]);
      expect(status).toBe("consumed");
    });
  }
});
