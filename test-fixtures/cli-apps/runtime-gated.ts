// A runtime whose governance has two runtime-level policies.
import { createAgentRuntime, createInMemoryApprovalCoordinator, defineGovernance } from "@orpc-agent/core";
import { registry, spendLimit, tenantGuard } from "./shared/billing.js";

const governance = defineGovernance({ registry, policies: [tenantGuard, spendLimit] });

export const runtime = createAgentRuntime({
  governance,
  approvals: { coordinator: createInMemoryApprovalCoordinator() },
  audit: () => {},
});
