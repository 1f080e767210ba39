// Builders shared by the SI-13 attacks: a refund capability that opts into standing grants, a runtime over one
// in-memory coordinator, and the people of the refund story (dana asks, priya manages).
import { createInMemoryApprovalCoordinator, type Actor, type AgentInvocationInfo, type AgentMeta, type AgentPolicy, type ApprovalsConfig, type GrantRequest } from "@orpc-agent/core";
import { z } from "zod";
import { base, build, meta } from "./runtime.js";

export const priya: Actor = Object.freeze({ id: "priya", kind: "user" });
export const sam: Actor = Object.freeze({ id: "sam", kind: "user" });
export const HOUR = 3_600_000;

export const CAPS = Object.freeze({ maxUses: 50, maxTtlMs: HOUR, scopes: ["conversation", "actor"] as ("conversation" | "actor")[] });

/** What a refund's handler is shown: its approval in `context.agent`, as any handler's. */
type RefundCall = { input: unknown; context: { agent?: AgentInvocationInfo } };

/**
 * A refund of `amount` to `customerId`, approved by a manager, with grants capped at 50 uses and one hour. `handler`
 * answers in place of the default (the refunded input); every call's input is recorded in `ran` either way.
 */
export function refunds(
  options: { approval?: AgentMeta["approval"]; schema?: z.ZodType; policies?: AgentPolicy[]; expose?: AgentMeta["expose"]; handler?: (call: RefundCall) => unknown } = {},
) {
  const ran: unknown[] = [];
  const procedure = base
    .input(options.schema ?? z.object({ customerId: z.string(), amount: z.number() }))
    .meta({
      agent: meta({
        approval: options.approval ?? { required: true, type: "manager", grants: { ...CAPS, scopes: [...CAPS.scopes] } },
        ...(options.policies === undefined ? {} : { policies: options.policies }),
        ...(options.expose === undefined ? {} : { expose: options.expose }),
      }),
    })
    .handler((call) => {
      ran.push(call.input);
      return options.handler === undefined ? { refunded: call.input } : options.handler(call as RefundCall);
    });
  return { procedure, ran };
}

/** One runtime over one coordinator (a fresh in-memory one unless given; returned, so a second runtime can share it). */
export function grantRuntime(
  defs: Parameters<typeof build>[0]["defs"],
  options: { approvals?: ApprovalsConfig; policies?: AgentPolicy[]; now?: () => Date } = {},
) {
  const coordinator = options.approvals?.coordinator ?? createInMemoryApprovalCoordinator();
  const built = build({
    defs,
    approvals: { ...options.approvals, coordinator },
    ...(options.policies === undefined ? {} : { policies: options.policies }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return { ...built, coordinator };
}

export const grant = (overrides: Partial<GrantRequest> = {}): GrantRequest => ({ uses: 3, ttlMs: HOUR, scope: "actor", ...overrides });
