// The same registry and runtime as runtime-gated.ts, with "spend-limit" removed.
import { createAgentRuntime, createInMemoryApprovalCoordinator, defineGovernance } from "@orpc-agent/core";
import { registry, tenantGuard } from "./shared/billing.js";

const governance = defineGovernance({ registry, policies: [tenantGuard] });

export const runtime = createAgentRuntime({
  governance,
  approvals: { coordinator: createInMemoryApprovalCoordinator() },
  audit: () => {},
});
