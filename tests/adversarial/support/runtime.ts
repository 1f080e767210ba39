// Small builders shared by the adversarial tests: one capability, a recording sink, actors.
import { os } from "@orpc/server";
import {
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  type Actor,
  type AgentAuditEvent,
  type AgentMeta,
  type AgentPolicy,
  type AgentRuntimeOptions,
  type CapabilityDefs,
  type ExecutionResult,
} from "@orpc-agent/core";

export const base = agentProcedure(os);
export const dana: Actor = Object.freeze({ id: "dana", kind: "user" });
export const mo: Actor = Object.freeze({ id: "mo", kind: "user" });

export function meta(overrides: Partial<AgentMeta> = {}): AgentMeta {
  return { description: "An adversarial test capability.", expose: { direct: true, aiSdk: true }, sideEffect: "write", risk: "high", ...overrides };
}

export function build({ defs, policies = [], ...options }: { defs: CapabilityDefs; policies?: AgentPolicy[] } & Omit<AgentRuntimeOptions, "governance">) {
  const events: AgentAuditEvent[] = [];
  const governance = defineGovernance({ registry: createCapabilityRegistry(defs), policies });
  const runtime = createAgentRuntime({ audit: (e: AgentAuditEvent) => void events.push(e), ...options, governance });
  return { runtime, events };
}

export function approvalOf(result: ExecutionResult) {
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${JSON.stringify(result)}`);
  return result.approval;
}

export function errorOf(result: ExecutionResult) {
  if (result.status !== "failed" && result.status !== "cancelled") throw new Error(`expected a failed envelope, got ${JSON.stringify(result)}`);
  return result.error;
}
