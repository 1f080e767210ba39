// A small app with per-tool scopes: reports.export needs `reports:export`; secret.export needs it too but is hidden
// from everyone but the admin.
import {
  agentMeta,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  hide,
  type AgentRuntime,
} from "@orpc-agent/core";
import { admin } from "../support/app.js";
import { ap } from "../support/orpc.js";

export function createScopedApp(): { runtime: AgentRuntime<{ tenant: string }> } {
  const scoped = (description: string) =>
    // `adapters.mcp.scopes` is read by the MCP adapter; AgentMeta does not type it yet.
    agentMeta({ description, expose: { mcp: true }, sideEffect: "read", risk: "low", adapters: { mcp: { scopes: ["reports:export"] } } } as never);
  const registry = createCapabilityRegistry({
    reports: { export: ap.meta(scoped("Export the reports.")).handler(() => ({ exported: true })) },
    secret: { export: ap.meta(scoped("Export the secrets.")).handler(() => ({ exported: "secrets" })) },
  });
  const policies = [
    definePolicy("admins-only", (req) => (req.actor.id === admin.id ? allow() : hide()), {
      phases: ["discovery", "invocation"],
      scope: { capabilities: { ids: ["secret.export"] } },
    }),
  ];
  return { runtime: createAgentRuntime<{ tenant: string }>({ governance: defineGovernance({ registry, policies }) }) };
}
