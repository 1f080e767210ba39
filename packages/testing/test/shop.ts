// A small production-like registry for the testing package's own tests: middleware, schemas with defaults,
// a gated write, interruptible reads and writes, a redacted output and an undeclared failure.
import { ORPCError, os } from "@orpc/server";
import { z } from "zod";
import { agentMeta, agentProcedure, allow, createCapabilityRegistry, definePolicy, deny, type AgentMeta } from "@orpc-agent/core";

const ap = agentProcedure(os.$context<{ tenant?: string }>());

/** Middleware every capability shares: resolves the tenant and refuses the "closed" one. */
const tenantScoped = ap.use(({ context, next }) => {
  if (context.tenant === "closed") throw new ORPCError("FORBIDDEN", { message: "This tenant is closed." });
  return next({ context: { tenantName: `tenant:${context.tenant ?? "default"}` } });
});

function meta(description: string, overrides: Partial<AgentMeta> = {}): AgentMeta {
  return { description, expose: { test: true, direct: true }, sideEffect: "read", risk: "low", ...overrides };
}

/** Runs until its signal aborts, counting calls. */
function untilAborted(count: () => void) {
  return ({ signal }: { signal?: AbortSignal }) => {
    count();
    return new Promise<never>((_, reject) => signal?.addEventListener("abort", () => reject(new Error("interrupted")), { once: true }));
  };
}

export function buildShop() {
  const calls = { get: 0, refund: 0, cancel: 0, search: 0 };
  const registry = createCapabilityRegistry({
    orders: {
      get: tenantScoped
        .input(z.object({ id: z.string(), verbose: z.boolean().default(false) }))
        .meta(agentMeta(meta("Read an order.", { tags: ["orders"], redact: { output: withoutNote } })))
        .handler(({ input, context }) => {
          calls.get++;
          return { id: input.id, verbose: input.verbose, tenant: context.tenantName, by: context.agent?.actor.id, note: "internal note" };
        }),
      refund: tenantScoped
        .input(z.object({ id: z.string(), amount: z.number().positive() }))
        .meta(agentMeta(meta("Refund an order.", { tags: ["money"], sideEffect: "write", risk: "high", approval: { required: true, type: "manager" } })))
        .handler(({ input, context }) => {
          calls.refund++;
          return { refunded: input.amount, approvedBy: context.agent?.approval?.approver.id };
        }),
      cancel: tenantScoped
        .input(z.object({ id: z.string() }))
        .meta(agentMeta(meta("Cancel an order.", { sideEffect: "write", risk: "medium" })))
        .handler(untilAborted(() => calls.cancel++)),
      search: tenantScoped
        .meta(agentMeta(meta("Search orders.", { tags: ["orders"], retry: { maxAttempts: 2, backoffMs: 1 } })))
        .handler(untilAborted(() => calls.search++)),
      crash: tenantScoped
        .meta(agentMeta(meta("Always fails.")))
        .handler(() => {
          throw new Error("connection string postgres://admin:hunter2@db");
        }),
      mcpTool: tenantScoped.meta(agentMeta(meta("Also on MCP.", { expose: { test: true, mcp: true } }))).handler(() => "mcp"),
    },
  });
  const blocked = definePolicy("blocked-actors", (req) =>
    req.actor.attributes?.blocked === true ? deny("BLOCKED", "Blocked actors may not do this.") : allow(),
  );
  return { registry, policies: [blocked], calls };
}

function withoutNote(output: unknown): unknown {
  const { note: _note, ...rest } = output as { note?: string };
  return rest;
}
