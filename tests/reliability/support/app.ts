// The application every reliability test drives: a real registry, a real runtime per test, capabilities chosen to
// reach every pipeline branch (schema and schemaless, policies, the approval gate, concealed and declared errors,
// slow and retried handlers), and a record of what handlers and audit sinks saw.
import { ORPCError, os } from "@orpc/server";
import { z } from "zod";
import {
  agentProcedure,
  allow,
  CapabilityError,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  type Actor,
  type AgentAuditEvent,
  type AgentMeta,
  type AgentRuntime,
  type AgentRuntimeOptions,
  type ErrorCode,
} from "@orpc-agent/core";

export const dana: Actor = Object.freeze({ id: "u_dana", kind: "user" });
export const priya: Actor = Object.freeze({ id: "u_priya", kind: "user" });

/** Text a throwing handler or policy carries; it must never reach a client (SI-9). */
export const SENTINEL = "SENTINEL_7f3a_internal";

export const ERROR_CODES: readonly ErrorCode[] = [
  "CAPABILITY_NOT_FOUND", "INPUT_INVALID", "UNAUTHENTICATED", "FORBIDDEN", "POLICY_DENIED", "POLICY_FAILED",
  "APPROVAL_REQUIRED", "APPROVAL_PENDING", "APPROVAL_REJECTED", "APPROVAL_EXPIRED", "APPROVAL_CONSUMED",
  "APPROVAL_ALREADY_DECIDED", "APPROVAL_INPUT_MISMATCH", "APPROVAL_SELF_APPROVAL", "APPROVAL_UNSERIALIZABLE_INPUT", "APPROVAL_RESUME_MISMATCH",
  "APPROVAL_LINK_INVALID", "APPROVAL_LINK_EXPIRED", "APPROVAL_LINKS_DISABLED", "APPROVAL_SWEEP_UNSUPPORTED",
  "GRANT_NOT_ALLOWED", "GRANT_EXCEEDS_CAPS", "GRANT_ISSUERS_INSUFFICIENT", "GRANT_NOT_FOUND",
  "EXECUTION_FAILED", "OUTPUT_INVALID", "TIMEOUT", "CANCELLED", "AUDIT_UNAVAILABLE", "ADAPTER_ERROR", "INTERNAL_ERROR",
];

/** Audit event types that end an execution: exactly one per execution (SI-12). */
export const TERMINAL_EVENTS = new Set(["capability.completed", "capability.failed", "capability.cancelled", "capability.denied"]);

const base = agentProcedure(os);
const meta = (description: string, overrides: Partial<AgentMeta> = {}): { agent: AgentMeta } => ({
  agent: { description, expose: { mcp: true, aiSdk: true, direct: true }, sideEffect: "read", risk: "low", ...overrides },
});

/** How long the `timing.*` handlers wait, and whether `timing.flaky` may fail; chosen by the caller per input. */
const waitInput = z.object({ ms: z.number().int().min(0).max(10_000), fail: z.boolean().optional() });

function sleepUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ms === 0) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error(`${SENTINEL}: aborted`));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export type Counters = { executions: Map<string, number> };

export function createRegistry(counters: Counters = { executions: new Map() }) {
  const ran = (id: string) => counters.executions.set(id, (counters.executions.get(id) ?? 0) + 1);
  const registry = createCapabilityRegistry({
    notes: {
      echo: base
        .input(z.looseObject({}))
        .meta(meta("Return the arguments as received.", { sideEffect: "none" }))
        .handler(({ input }) => ({ received: input })),
      summary: base
        .input(z.looseObject({}))
        .meta(meta("Count the top-level keys.", { sideEffect: "none" }))
        .handler(({ input }) => ({ keys: Object.keys(input).length })),
      raw: base.meta(meta("No schema: the raw arguments reach the handler.")).handler(({ input }) => ({ type: typeof input })),
      passthrough: base
        .input(z.object({ data: z.unknown() }))
        .meta(meta("Passes opaque data by reference."))
        .handler(() => ({ ok: true })),
      count: base
        .input(z.object({ n: z.number() }))
        .meta(meta("Count to n."))
        .handler(({ input }) => ({ counted: input.n })),
      fail: base.meta(meta("Fails with an undeclared error.")).handler(() => {
        throw new Error(`${SENTINEL}: db password is hunter2\n    at query (/srv/app/db.js:10:5)`);
      }),
      declared: base.meta(meta("Fails with a declared error.")).handler(() => {
        throw new ORPCError("CONFLICT", { message: "The note changed meanwhile." });
      }),
      orpcInternal: base.meta(meta("Fails with an oRPC internal error.")).handler(() => {
        throw new ORPCError("INTERNAL_SERVER_ERROR", { message: `${SENTINEL}: upstream`, data: { stack: "at x (y.js:1:1)" } });
      }),
    },
    orders: {
      refund: base
        .input(z.object({ orderId: z.string(), amount: z.number() }))
        .meta(meta("Refund an order.", { sideEffect: "write", risk: "high", approval: { required: true } }))
        .handler(({ input }) => {
          ran("orders.refund");
          return { refunded: input.amount };
        }),
    },
    timing: {
      wait: base
        .input(waitInput)
        .meta(meta("Waits, honouring cancellation.", { timeoutMs: 10_000 }))
        .handler(async ({ input, signal }) => {
          ran("timing.wait");
          await sleepUnlessAborted(input.ms, signal);
          return { waited: input.ms };
        }),
      tight: base
        .input(waitInput)
        .meta(meta("Waits under a 5 ms timeout.", { timeoutMs: 5 }))
        .handler(async ({ input, signal }) => {
          ran("timing.tight");
          await sleepUnlessAborted(input.ms, signal);
          return { waited: input.ms };
        }),
      flaky: base
        .input(waitInput)
        .meta(meta("Fails retryably at random when asked, else succeeds.", { retry: { maxAttempts: 2, backoffMs: 1 } }))
        .handler(async ({ input }) => {
          ran("timing.flaky");
          // Stateless on purpose: the leak test runs this 10⁴ times and must retain nothing per execution.
          if (input.fail === true && Math.random() < 0.5) {
            throw new CapabilityError({ code: "EXECUTION_FAILED", retryable: true, exposeToModel: true, publicMessage: "Busy." });
          }
          return { ok: true };
        }),
    },
  });
  return registry;
}

/** Policies that read the input deeply: they see the frozen copy (SI-6) and must not break on hostile shapes. */
export const inputReadingPolicies = [
  definePolicy(
    "reads-input",
    (req) => {
      const input = req.input as Record<string, unknown> | undefined;
      // Touch what hostile input targets; a throw here is a policy error (fail closed), never a crash.
      void (input && typeof input === "object" ? Object.keys(input).length : 0);
      return allow();
    },
    { scope: { capabilities: { ids: ["notes.passthrough", "notes.raw", "notes.echo"] } } },
  ),
  definePolicy("async-allow", async () => allow(), { scope: { capabilities: { ids: ["notes.passthrough", "orders.refund"] } } }),
];

export type TestRuntime = {
  runtime: AgentRuntime<Record<string, unknown>>;
  events: AgentAuditEvent[];
  counters: Counters;
};

/** A fresh runtime over the shared application, with an in-memory audit trail (so stage 5 hashes the input). */
export function createTestRuntime(options: Partial<AgentRuntimeOptions<Record<string, unknown>>> & { keepEvents?: boolean } = {}): TestRuntime {
  const counters: Counters = { executions: new Map() };
  const registry = createRegistry(counters);
  const events: AgentAuditEvent[] = [];
  const keep = options.keepEvents !== false;
  const runtime = createAgentRuntime<Record<string, unknown>>({
    governance: defineGovernance({ registry, policies: inputReadingPolicies }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: keep ? (event) => void events.push(event) : () => {},
    ...options,
  });
  return { runtime, events, counters };
}
