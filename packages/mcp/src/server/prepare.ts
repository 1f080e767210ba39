import type { AgentRuntime } from "@orpc-agent/core";
import { prepareApprovalElicitation, type ApprovalElicitation } from "../approvals/elicitation-config.js";
import { prepareMCPServer, type PreparedMCPServer } from "../catalog/prepare.js";
import type { MCPOptions } from "./options.js";
import { assertTraceContextOption } from "./trace-context.js";

/** The governed server's configuration: what both entries prepare, plus URL elicitation of approvals. */
export type PreparedGovernedServer<TContext> = PreparedMCPServer<TContext, MCPOptions<TContext>> & {
  elicitation: ApprovalElicitation | undefined;
};

/** Validates the options, then builds the catalog and the URL elicitation state once; `TypeError` for anything refused. */
export function prepareGovernedServer<TContext>(
  runtime: AgentRuntime<TContext>,
  options: MCPOptions<TContext>,
  adapter: string,
): PreparedGovernedServer<TContext> {
  const prepared = prepareMCPServer(runtime, options, adapter);
  assertTraceContextOption(options.traceContext, adapter);
  return { ...prepared, elicitation: prepareApprovalElicitation(options, adapter) };
}
