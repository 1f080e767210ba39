// A small support-desk application for the adapter's own tests: a read, a gated write, an identity probe, a
// cancellable read, a contextual capability, an admin-only one, tagged ones, and one not exposed to the AI SDK.
import { os } from "@orpc/server";
import { z } from "zod";
import {
  agentMeta,
  agentProcedure,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  hide,
  type Actor,
  type AgentAuditEvent,
  type AgentPolicy,
  type AgentRuntime,
  type AgentRuntimeOptions,
} from "@orpc-agent/core";

export const dana: Actor = Object.freeze({ id: "u_dana", kind: "user" });
export const priya: Actor = Object.freeze({ id: "u_priya", kind: "user" });
export const admin: Actor = Object.freeze({ id: "u_admin", kind: "user", attributes: { role: "admin" } });

export type AppContext = { tenant: string };
export const context: AppContext = { tenant: "acme" };

/** A promise with its resolver, so a test can wait for a handler without fixed delays. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What the cancellable handler saw, per run. */
export type SlowRun = { started: Promise<void>; settled: Promise<{ aborted: boolean; reason: unknown }> };

export function buildApp(options: { policies?: AgentPolicy[]; runtime?: Partial<AgentRuntimeOptions<AppContext>> } = {}) {
  // The test files resolve @orpc/server from the workspace root, a second install of the version core is typed
  // against; the cast bridges the two declaration copies.
  const ap = agentProcedure(os.$context<AppContext>() as unknown as Parameters<typeof agentProcedure>[0]);
  const handlerRuns: string[] = [];
  let slowStarted = deferred();
  let slowSettled = deferred<{ aborted: boolean; reason: unknown }>();

  const registry = createCapabilityRegistry({
    orders: {
      get: ap
        .input(z.object({ orderId: z.string() }))
        .meta(agentMeta({ description: "Read an order.", expose: { aiSdk: true, direct: true }, sideEffect: "read", risk: "low", tags: ["orders"] }))
        .handler(({ input }) => {
          handlerRuns.push("orders.get");
          return { orderId: input.orderId, total: 649, status: "delivered" };
        }),
      refund: ap
        .input(z.object({ orderId: z.string(), amount: z.number().positive() }))
        .meta(agentMeta({
          description: "Refund an order.",
          expose: { aiSdk: true, direct: true },
          sideEffect: "write",
          risk: "high",
          tags: ["orders"],
          approval: { required: true, type: "manager" },
        }))
        .handler(({ input, context: ctx }) => {
          handlerRuns.push("orders.refund");
          return { refunded: input.amount, orderId: input.orderId, approvedBy: ctx.agent?.approval?.approver.id };
        }),
    },
    support: {
      whoami: ap
        // Arbitrary model data is accepted on purpose: it must never become the executing actor (SI-3).
        .input(z.object({ actor: z.unknown().optional(), as: z.unknown().optional() }))
        .meta(agentMeta({ description: "Report who runs this call.", expose: { aiSdk: true }, sideEffect: "none", risk: "low" }))
        .handler(({ context: ctx }) => {
          handlerRuns.push("support.whoami");
          return { actor: ctx.agent?.actor, tenant: ctx.tenant };
        }),
      slow: ap
        .meta(agentMeta({ description: "Search the archive until cancelled.", expose: { aiSdk: true }, sideEffect: "read", risk: "low", timeoutMs: 5_000 }))
        .handler(({ signal }) => {
          handlerRuns.push("support.slow");
          const settled = slowSettled;
          slowStarted.resolve();
          return new Promise((_, reject) => {
            const settle = () => {
              settled.resolve({ aborted: signal?.aborted === true, reason: signal?.reason });
              reject(new Error("archive search interrupted"));
            };
            if (signal === undefined || signal.aborted) settle();
            else signal.addEventListener("abort", settle, { once: true });
          });
        }),
      currentTicket: ap
        .meta(agentMeta({
          description: "Read the ticket open in the agent's UI.",
          expose: { aiSdk: true },
          sideEffect: "read",
          risk: "low",
          discovery: "contextual",
        }))
        .handler(() => {
          handlerRuns.push("support.currentTicket");
          return { ticket: "T-1" };
        }),
    },
    admin: {
      purge: ap
        .meta(agentMeta({ description: "Purge closed tickets.", expose: { aiSdk: true }, sideEffect: "destructive", risk: "critical", tags: ["admin"] }))
        .handler(() => {
          handlerRuns.push("admin.purge");
          return { purged: 3 };
        }),
    },
    notes: {
      add: ap
        .input(z.object({ text: z.string().min(1) }))
        .meta(agentMeta({ description: "Add a note.", expose: { aiSdk: true }, sideEffect: "write", risk: "low", tags: ["notes"] }))
        .handler(({ input }) => {
          handlerRuns.push("notes.add");
          return { added: input.text };
        }),
    },
    internal: {
      reindex: ap
        .meta(agentMeta({ description: "Reindex from server code only.", expose: { direct: true }, sideEffect: "write", risk: "low" }))
        .handler(() => {
          handlerRuns.push("internal.reindex");
          return { reindexed: true };
        }),
    },
  });

  const adminOnly = definePolicy("admin-only", (req) => (req.actor.attributes?.role === "admin" ? allow() : hide()), {
    phases: ["discovery", "invocation"],
    scope: { capabilities: { tags: ["admin"] } },
  });
  const governance = defineGovernance({ registry, policies: [adminOnly, ...(options.policies ?? [])] });
  const events: AgentAuditEvent[] = [];
  const runtime: AgentRuntime<AppContext> = createAgentRuntime<AppContext>({
    governance,
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: (event) => void events.push(event),
    ...options.runtime,
  });

  return {
    runtime,
    registry,
    events,
    handlerRuns,
    /** The next run of `support.slow`; call before starting it. */
    nextSlowRun(): SlowRun {
      slowStarted = deferred();
      slowSettled = deferred();
      return { started: slowStarted.promise, settled: slowSettled.promise };
    },
  };
}

/** Registry order of the capabilities exposed on aiSdk, by wire name. */
export const ALL_AI_SDK_TOOLS = ["orders_get", "orders_refund", "support_whoami", "support_slow", "admin_purge", "notes_add"];
