import type { AgentRuntime } from "@orpc-agent/core";
import type { ApprovalGuidance } from "./envelope.js";
import type { MCPGovernanceOptions } from "./governance-options.js";
import { assertServerOptions, type MCPServerOptions } from "../v1/options.js";
import { buildToolCatalog, type ToolCatalog } from "./tool-catalog.js";
import { prepareApprovalElicitation, type ApprovalElicitation } from "../approvals/elicitation-config.js";
import { ConfigurationError } from "@orpc-agent/core/adapter";

/** Everything decided once per configuration, on either SDK path; servers built from it are cheap (docs/architecture/spec/adapters.md#adapters-3-1). */
export type PreparedMCPServer<TContext, TOptions extends MCPGovernanceOptions = MCPGovernanceOptions> = {
  runtime: AgentRuntime<TContext>;
  options: TOptions;
  catalog: ToolCatalog;
  guidance: ApprovalGuidance;
  /** URL elicitation of approvals: read by the v2 path only (the v1 options have no `urlElicitation`). */
  elicitation: ApprovalElicitation | undefined;
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
  assertServerOptions(options);
  const catalog = buildToolCatalog(runtime.registry, options as unknown as MCPServerOptions<unknown>, adapter);
  const guidance: ApprovalGuidance = { url: options.approvals?.url, resumeToolName: catalog.resumeTool?.name };
  const elicitation = prepareApprovalElicitation(options as Parameters<typeof prepareApprovalElicitation>[0]);
  return { runtime, options, catalog, guidance, elicitation };
}
