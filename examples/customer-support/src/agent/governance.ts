import { createCapabilityRegistry, defineGovernance, definePolicy, deny, hide, requireApproval, allow } from "@orpc-agent/core";
import type { AppContext } from "../api/context.js";
import { router } from "../api/router.js";

/** Refunds above this amount (in cents) need a manager. */
export const REFUND_APPROVAL_THRESHOLD_CENTS = 10_000;

/** The whole router goes in; procedures without agent metadata (`internal.health`) are excluded, never exposed. */
export const registry = createCapabilityRegistry(router);

const refundThreshold = definePolicy(
  "refund-threshold",
  ({ input }) => {
    const amount = (input as { amountCents: number }).amountCents;
    return amount > REFUND_APPROVAL_THRESHOLD_CENTS
      ? requireApproval({ reason: `Refund of ${amount / 100} exceeds the ${REFUND_APPROVAL_THRESHOLD_CENTS / 100} limit.`, approvalType: "manager" })
      : allow();
  },
  { phases: ["invocation"], scope: { capabilities: { ids: ["orders.refund"] } } },
);

// Deny, not hide: the demo shows a model calling customers_delete and relaying the refusal. An app whose models
// should not see the tool at all hides it at discovery too (docs/guides/policies.md).
const noAgentDeletes = definePolicy("no-agent-account-deletion", () => deny("AGENTS_MAY_NOT_DELETE", "Agents may not delete accounts; ask a human administrator."), {
  phases: ["invocation"],
  scope: { capabilities: { sideEffects: ["destructive"] }, surfaces: ["aiSdk", "mcp"] },
});

const staffOnlyInternal = definePolicy(
  "internal-tools-for-admins",
  ({ context }) => ((context as AppContext).user?.role === "admin" ? allow() : hide()),
  { phases: ["discovery", "invocation"], scope: { capabilities: { tags: ["internal"] } } },
);

// A rule on trial before it may block anyone: the team considers asking a manager before an assistant reads a
// customer's profile. In shadow mode it never changes an outcome; every read it would have held back is recorded as
// `capability.shadow_diverged` (docs/guides/shadow-policies.md). Moving it to `policies` is narrowing drift.
const profileReadTrial = definePolicy("profile-read-needs-manager", () => requireApproval({ reason: "Assistants read customer profiles only with a manager.", approvalType: "manager" }), {
  phases: ["invocation"],
  scope: { capabilities: { ids: ["customers.get"] }, surfaces: ["aiSdk", "mcp"] },
});

/** What `orpc-agent check` reads, and what every runtime of this app evaluates. */
export const governance = defineGovernance({
  registry,
  policies: [refundThreshold, noAgentDeletes, staffOnlyInternal],
  shadowPolicies: [profileReadTrial],
});
