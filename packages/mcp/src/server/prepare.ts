import type { AgentRuntime } from "@orpc-agent/core";
import { approvalDemand, type ApprovalDemand } from "@orpc-agent/core/adapter";
import { prepareApprovalElicitation, type ApprovalElicitation } from "../approvals/elicitation-config.js";
import { dataSchemaOf, type DataSchema } from "../catalog/output-data-schema.js";
import { prepareMCPServer, type PreparedMCPServer } from "../catalog/prepare.js";
import type { MCPOptions } from "./options.js";
import { assertTraceContextOption } from "./trace-context.js";
import { prepareTasks } from "../tasks/tasks-config.js";
import type { TaskRuntime } from "../tasks/task-runtime.js";

/** The governed server's configuration: what both entries prepare, plus URL elicitation of approvals. */
export type PreparedGovernedServer<TContext> = PreparedMCPServer<TContext, MCPOptions<TContext>> & {
  elicitation: ApprovalElicitation | undefined;
  /** The output schema each listed tool's envelope carries for `data`, by capability id; absent ⇒ `data` is open. */
  dataSchemas: ReadonlyMap<string, DataSchema>;
  /** Whether a call of each tool can stop for approval, as far as static facts tell (per actor, discovery adds "always"). */
  approvalDemands: ReadonlyMap<string, ApprovalDemand>;
  /** With `tasks`: the MCP Tasks extension's store and the resumes running in this process. */
  tasks: TaskRuntime | undefined;
};

/** Validates the options, then builds the catalog and the URL elicitation state once; `TypeError` for anything refused. */
export function prepareGovernedServer<TContext>(
  runtime: AgentRuntime<TContext>,
  options: MCPOptions<TContext>,
  adapter: string,
): PreparedGovernedServer<TContext> {
  const prepared = prepareMCPServer(runtime, options, adapter);
  assertTraceContextOption(options.traceContext, adapter);
  const { dataSchemas, approvalDemands } = toolFactsOf(prepared);
  const tasks = prepareTasks(options.tasks, adapter, runtime.registry.capabilities());
  return { ...prepared, elicitation: prepareApprovalElicitation(options, adapter), dataSchemas, approvalDemands, tasks };
}

/** Worked out once per configuration, for the capabilities that have a tool. */
function toolFactsOf<TContext>({ runtime, catalog }: PreparedMCPServer<TContext, MCPOptions<TContext>>) {
  const dataSchemas = new Map<string, DataSchema>();
  const approvalDemands = new Map<string, ApprovalDemand>();
  for (const capability of runtime.registry.capabilities()) {
    if (catalog.nameOf(capability.id) === undefined) continue;
    const schema = dataSchemaOf(capability);
    if (schema !== undefined) dataSchemas.set(capability.id, schema);
    approvalDemands.set(capability.id, approvalDemand(runtime.governance, capability.id, "mcp"));
  }
  return { dataSchemas, approvalDemands };
}
