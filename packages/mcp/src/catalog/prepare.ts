import type { AgentRuntime } from "@orpc-agent/core";
import type { ApprovalGuidance } from "./envelope.js";
import { assertGovernanceOptions, type MCPGovernanceOptions } from "./governance-options.js";
import { buildToolCatalog, type ToolCatalog } from "./tool-catalog.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

/** Everything decided once per configuration, on either entry; servers built from it are cheap (docs/architecture/spec/adapters.md#adapters-3-1). */
export type PreparedMCPServer<TContext, TOptions extends MCPGovernanceOptions = MCPGovernanceOptions> = {
  runtime: AgentRuntime<TContext>;
  options: TOptions;
  catalog: ToolCatalog;
  guidance: ApprovalGuidance;
};

/** Validates options and builds the tool catalog; throws `TypeError` for anything the adapter refuses. */
export function prepareMCPServer<TContext, TOptions extends MCPGovernanceOptions & { createContext: unknown }>(
  runtime: AgentRuntime<TContext>,
  options: TOptions,
  adapter: string,
): PreparedMCPServer<TContext, TOptions> {
  if (typeof runtime !== "object" || runtime === null || typeof runtime.describe !== "function" || typeof runtime.invoke !== "function") {
    throw new ConfigurationError(`${adapter}(runtime, options): runtime must be an AgentRuntime from createAgentRuntime.`);
  }
  assertGovernanceOptions(options, adapter);
  const catalog = buildToolCatalog(runtime.registry, options, adapter);
  const guidance: ApprovalGuidance = { url: options.approvals?.url, resumeToolName: catalog.resumeTool?.name };
  return { runtime, options, catalog, guidance };
}
