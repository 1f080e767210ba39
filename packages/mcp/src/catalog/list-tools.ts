import { CONCEALED_MESSAGE } from "@orpc-agent/core/adapter";
import { ToolListingError, type McpListToolsResult as ListToolsResult, type McpTool as Tool } from "./wire-types.js";
import type { AgentRuntime, CapabilityDescriptor } from "@orpc-agent/core";
import type { MCPGovernanceOptions, MCPIdentity } from "./governance-options.js";
import { resumeToolListing } from "./resume-tool.js";
import type { ToolCatalog } from "./tool-catalog.js";

/**
 * What a serving path adds to each listed tool (the v2 path: `outputSchema`, `title`, governance `_meta`). Each
 * tool it receives is built for this listing alone, so it may complete it in place.
 */
export type ToolDecoration = {
  capability(tool: Tool, descriptor: CapabilityDescriptor): Tool;
  resume(tool: Tool): Tool;
};

/**
 * `tools/list` (docs/architecture/spec/adapters.md#adapters-3-4): the runtime's discovery for this identity on every call, never cached →
 * contextual descriptors dropped → `filter` → tools in registry order → the resume tool. One page.
 */
export async function listTools<TContext>(
  runtime: AgentRuntime<TContext>,
  catalog: ToolCatalog,
  options: Pick<MCPGovernanceOptions, "filter">,
  identity: MCPIdentity<TContext>,
  decoration?: ToolDecoration,
): Promise<ListToolsResult> {
  let descriptors: CapabilityDescriptor[];
  try {
    // Schemas are only serialized here, so the shared frozen trees do: no copy per capability per listing.
    descriptors = await runtime.describe("mcp", { actor: identity.actor, context: identity.context, inputSchemas: "shared" });
  } catch (error) {
    // Never a partial list: the whole listing fails, with the public message only when it is exposed.
    throw new ToolListingError(publicMessageOf(error));
  }
  const tools: Tool[] = [];
  for (const descriptor of descriptors) {
    // A contextual capability is callable but never listed unbound (docs/architecture/spec/core.md#core-8, docs/architecture/spec/distributed.md#distributed-2-3).
    if (descriptor.contextual === true) continue;
    if (options.filter !== undefined && !passesFilter(options.filter, descriptor)) continue;
    const tool = toTool(descriptor, catalog);
    if (tool !== undefined) tools.push(decoration === undefined ? tool : decoration.capability(tool, descriptor));
  }
  if (catalog.resumeTool !== undefined) {
    const resume = resumeToolListing(catalog.resumeTool);
    tools.push(decoration === undefined ? resume : decoration.resume(resume));
  }
  return { tools };
}

function toTool(descriptor: CapabilityDescriptor, catalog: ToolCatalog): Tool | undefined {
  const name = catalog.nameOf(descriptor.id);
  if (name === undefined) return undefined;
  const tool: Tool = {
    name,
    description: descriptor.requiresApproval === true ? `${descriptor.description} Requires approval.` : descriptor.description,
    inputSchema: descriptor.inputSchema as Tool["inputSchema"],
  };
  const annotations = catalog.annotationsOf(descriptor.id);
  if (annotations !== undefined) tool.annotations = { ...annotations };
  return tool;
}

function passesFilter(filter: NonNullable<MCPGovernanceOptions["filter"]>, descriptor: CapabilityDescriptor): boolean {
  try {
    return filter(descriptor) === true;
  } catch {
    throw new ToolListingError(CONCEALED_MESSAGE);
  }
}

function publicMessageOf(error: unknown): string {
  const e = error as { exposeToModel?: unknown; publicMessage?: unknown } | null;
  if (typeof e === "object" && e !== null && e.exposeToModel === true && typeof e.publicMessage === "string") return e.publicMessage;
  return CONCEALED_MESSAGE;
}
