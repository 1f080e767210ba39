// Import-time work guarded by ORPC_AGENT_INSPECT; the description shows which branch ran.
import { os } from "@orpc/server";
import { createCapabilityRegistry } from "@orpc-agent/core";

const inspecting = process.env.ORPC_AGENT_INSPECT === "1";
if (!inspecting) {
  // A real app would connect to its database here.
  throw new Error("guarded.js: would connect to the database");
}

export const registry = createCapabilityRegistry({
  status: os
    .meta({
      agent: {
        description: inspecting ? "Status (loaded under orpc-agent)." : "Status.",
        expose: { direct: true },
        sideEffect: "read",
        risk: "low",
      },
    })
    .handler(() => "ok"),
});
