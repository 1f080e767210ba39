// A registry, a governance over it, and a runtime built from that governance.
import { os } from "@orpc/server";
import {
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
} from "@orpc-agent/core";

export const registry = createCapabilityRegistry({
  notes: {
    read: os.meta({ agent: { description: "Read a note.", expose: { aiSdk: true }, sideEffect: "read", risk: "low" } }).handler(() => ""),
    delete: os
      .meta({ agent: { description: "Delete a note.", expose: { direct: true }, sideEffect: "destructive", risk: "high" } })
      .handler(() => true),
  },
});

export const governance = defineGovernance({
  registry,
  policies: [definePolicy("owner-only", () => allow(), { phases: ["invocation"] })],
});

export const runtime = createAgentRuntime({
  governance,
  approvals: { coordinator: createInMemoryApprovalCoordinator() },
  audit: () => {},
});
