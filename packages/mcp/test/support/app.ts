// A small application for the adapter tests: one capability per behaviour under test, a real runtime, a captured
// audit trail and a record of what interruptible handlers saw.
import { z } from "zod";
import {
  agentMeta,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  hide,
  type Actor,
  type AgentAuditEvent,
  type AgentMeta,
  type AgentRuntime,
  type AgentRuntimeOptions,
} from "@orpc-agent/core";
import { ap } from "./orpc.js";

export const dana: Actor = Object.freeze({ id: "u_dana", kind: "user" });
export const priya: Actor = Object.freeze({ id: "u_priya", kind: "user" });
export const admin: Actor = Object.freeze({ id: "u_admin", kind: "user" });

/** What an interruptible handler saw: it started, then settled with or without an aborted signal. */
export type Interruptions = {
  started(id: string): Promise<void>;
  settled(id: string): Promise<{ aborted: boolean }>;
};

type Deferred<T> = { promise: Promise<T>; resolve: (value: T) => void };

function slot<T>(map: Map<string, Deferred<T>>, id: string): Deferred<T> {
  let entry = map.get(id);
  if (entry === undefined) {
    let resolve!: (value: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    entry = { promise, resolve };
    map.set(id, entry);
  }
  return entry;
}

function meta(description: string, overrides: Partial<AgentMeta> = {}): AgentMeta {
  return { description, expose: { mcp: true }, sideEffect: "read", risk: "low", ...overrides };
}

export type TestApp = {
  runtime: AgentRuntime<{ tenant: string }>;
  events: AgentAuditEvent[];
  interruptions: Interruptions;
  /** Audit events after every pending write settled. */
  auditEvents(): Promise<AgentAuditEvent[]>;
};

/** A fresh app per test. `runtimeOptions` overrides the runtime's defaults (e.g. the discovery budget). */
export function createTestApp(runtimeOptions: Partial<AgentRuntimeOptions<{ tenant: string }>> = {}): TestApp {
  const startedBy = new Map<string, Deferred<void>>();
  const settledBy = new Map<string, Deferred<{ aborted: boolean }>>();
  const interruptions: Interruptions = {
    started: (id) => slot(startedBy, id).promise,
    settled: (id) => slot(settledBy, id).promise,
  };
  const waitForAbort = (id: string, signal: AbortSignal | undefined) =>
    new Promise<never>((_, reject) => {
      slot(startedBy, id).resolve();
      const settle = () => {
        slot(settledBy, id).resolve({ aborted: signal?.aborted === true });
        reject(new Error(`${id} interrupted`));
      };
      if (signal === undefined || signal.aborted) settle();
      else signal.addEventListener("abort", settle, { once: true });
    });

  const registry = createCapabilityRegistry({
    orders: {
      get: ap
        .input(z.object({ id: z.string() }))
        .meta(agentMeta(meta("Read an order.")))
        .handler(({ input, context }) => ({ id: input.id, readBy: context.agent?.actor.id })),
      refund: ap
        .input(z.object({ orderId: z.string(), amount: z.number() }))
        .meta(agentMeta(meta("Refund an order.", { expose: { mcp: true, direct: true }, sideEffect: "write", risk: "high", idempotent: true, approval: { required: true } })))
        .handler(({ input }) => ({ refunded: input.amount })),
    },
    admin: {
      purge: ap.meta(agentMeta(meta("Purge everything.", { sideEffect: "destructive", risk: "critical" }))).handler(() => ({ purged: true })),
    },
    notes: {
      echo: ap
        .input(z.looseObject({}))
        .meta(agentMeta(meta("Return the arguments as received.", { sideEffect: "none" })))
        .handler(({ input }) => ({ received: input })),
      count: ap
        .input(z.object({ n: z.number() }))
        .meta(agentMeta(meta("Count to n.")))
        .handler(({ input }) => ({ counted: input.n })),
      whoami: ap.meta(agentMeta(meta("Report the executing actor and tenant."))).handler(({ context }) => ({
        actor: context.agent?.actor.id,
        tenant: (context as { tenant?: string }).tenant,
      })),
      fail: ap.meta(agentMeta(meta("Fails with an internal error."))).handler(() => {
        throw new Error("db password is hunter2");
      }),
      slow: ap.meta(agentMeta(meta("Runs until cancelled.", { timeoutMs: 5_000 }))).handler(({ signal }) => waitForAbort("notes.slow", signal)),
      sleepy: ap.meta(agentMeta(meta("Outlives its timeout.", { timeoutMs: 20 }))).handler(({ signal }) => waitForAbort("notes.sleepy", signal)),
      bound: ap.meta(agentMeta(meta("Only meaningful inside a bound context.", { discovery: "contextual" }))).handler(() => ({ bound: true })),
      internal: ap.meta(agentMeta(meta("Not for MCP.", { expose: { direct: true } }))).handler(() => ({ internal: true })),
    },
  });
  const policies = [
    definePolicy("admins-only", (req) => (req.actor.id === admin.id ? allow() : hide()), {
      phases: ["discovery", "invocation"],
      scope: { capabilities: { ids: ["admin.purge"] } },
    }),
  ];
  const events: AgentAuditEvent[] = [];
  const runtime = createAgentRuntime<{ tenant: string }>({
    governance: defineGovernance({ registry, policies }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: (event) => void events.push(event),
    ...runtimeOptions,
  });
  return {
    runtime,
    events,
    interruptions,
    async auditEvents() {
      await runtime.drainAudit();
      return [...events];
    },
  };
}
