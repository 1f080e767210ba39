// Shared scaffolding for the invoke/describe pipeline tests: actors, an in-memory audit sink and small builders.
import { os } from "@orpc/server";
import {
  agentMeta,
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
} from "../../src/index.js";

export const base = agentProcedure(os);

export const dana: Actor = Object.freeze({ id: "dana", kind: "user" });
export const priya: Actor = Object.freeze({ id: "priya", kind: "user" });

/** A valid AgentMeta: direct + aiSdk, read, low risk, unless overridden. */
export function meta(overrides: Partial<AgentMeta> = {}): AgentMeta {
  return { description: "A test capability.", expose: { direct: true, aiSdk: true }, sideEffect: "read", risk: "low", ...overrides };
}

/** A capability without an input schema that returns "ok" and counts its calls. */
export function counted(overrides: Partial<AgentMeta> = {}) {
  const calls = { count: 0 };
  const procedure = base.meta(agentMeta(meta(overrides))).handler(() => {
    calls.count++;
    return "ok";
  });
  return { procedure, calls };
}

/** Records every audit event; typed lookups by event type. */
export function auditLog() {
  const events: AgentAuditEvent[] = [];
  const sink = (event: AgentAuditEvent) => void events.push(event);
  const ofType = <T extends AgentAuditEvent["type"]>(type: T) =>
    events.filter((e): e is Extract<AgentAuditEvent, { type: T }> => e.type === type);
  return { events, sink, ofType };
}

type BuildOptions = {
  defs: CapabilityDefs;
  policies?: AgentPolicy[];
} & Omit<AgentRuntimeOptions, "governance">;

/** Registry → governance → runtime, with a recording sink unless `audit` is given. */
export function build({ defs, policies = [], ...options }: BuildOptions) {
  const log = auditLog();
  const registry = createCapabilityRegistry(defs);
  const governance = defineGovernance({ registry, policies });
  const runtime = createAgentRuntime({ audit: log.sink, ...options, governance });
  return { runtime, registry, governance, ...log };
}

/** The error of a failed/cancelled envelope; throws (failing the test) for any other outcome. */
export function errorOf(result: ExecutionResult) {
  if (result.status !== "failed" && result.status !== "cancelled") {
    throw new Error(`expected a failed envelope, got ${result.status}: ${JSON.stringify(result)}`);
  }
  return result.error;
}

export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The public shape of an error, for byte-for-byte comparisons (everything but the cause). */
export function publicShape(error: { code: string; publicMessage: string; retryable: boolean; exposeToModel: boolean; stage: string; details?: unknown; message: string; name: string }) {
  return {
    name: error.name,
    code: error.code,
    message: error.message,
    publicMessage: error.publicMessage,
    retryable: error.retryable,
    exposeToModel: error.exposeToModel,
    stage: error.stage,
    details: error.details,
    hasDetails: "details" in error,
  };
}
