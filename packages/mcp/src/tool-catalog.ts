import type { AgentCapability, CapabilityRegistry, McpToolAnnotations } from "@orpc-agent/core";
import { toJsonSchema } from "@orpc-agent/core/schema";
import { toolAnnotations } from "./annotations.js";
import type { MCPServerOptions } from "./options.js";
import { resumeToolOf, type ResumeTool } from "./resume-tool.js";
import { MCP_TOOL_NAME, mcpToolName } from "./tool-name.js";

/** What a `tools/call` name addresses (adapters.md §1.4, §3.5 steps 2–3). */
export type ToolTarget =
  | { kind: "resume" }
  /** A capability id, or an unresolved name forwarded verbatim so the runtime audits the probe as unknown. */
  | { kind: "invoke"; id: string }
  /** A raw registry id addressed by a different wire name: concealed without invoking. */
  | { kind: "concealed" };

/** The static tool facts of one server: names both ways, annotations and the resume tool. Never per actor. */
export type ToolCatalog = {
  nameOf(capabilityId: string): string | undefined;
  annotationsOf(capabilityId: string): McpToolAnnotations | undefined;
  resolve(name: string): ToolTarget;
  resumeTool: ResumeTool | undefined;
};

/**
 * Builds the name maps once, at construction: invalid names, collisions (resume tool included) and non-object
 * input roots throw `TypeError` here, never on a call (adapters.md §1.4, §3.1, §3.4).
 */
export function buildToolCatalog(registry: CapabilityRegistry, options: MCPServerOptions<unknown>): ToolCatalog {
  const mode = options.annotations ?? "derive";
  const exposedByName = new Map<string, string>();
  const nameById = new Map<string, string>();
  const unexposedHolders = new Map<string, string[]>();
  const annotations = new Map<string, McpToolAnnotations | undefined>();

  for (const capability of registry.capabilities()) {
    const name = mcpToolName(capability, options.toolNaming);
    nameById.set(capability.id, name);
    if (capability.meta.expose.mcp !== true) {
      // Capabilities not exposed on mcp never collide (§1.4); they resolve only when one alone holds a name.
      unexposedHolders.set(name, [...(unexposedHolders.get(name) ?? []), capability.id]);
      continue;
    }
    assertValidName(name, capability.id);
    const holder = exposedByName.get(name);
    if (holder !== undefined) throw collisionError(name, holder, capability.id);
    assertObjectInputRoot(capability);
    exposedByName.set(name, capability.id);
    annotations.set(capability.id, toolAnnotations(capability.meta, mode));
  }

  const resumeTool = resumeToolOf(options);
  if (resumeTool !== undefined) {
    assertValidName(resumeTool.name, "the approvals resume tool");
    const holder = exposedByName.get(resumeTool.name);
    if (holder !== undefined) throw collisionError(resumeTool.name, holder, "the approvals resume tool");
  }

  return {
    resumeTool,
    nameOf: (id) => (registry.get(id)?.meta.expose.mcp === true ? nameById.get(id) : undefined),
    annotationsOf: (id) => annotations.get(id),
    resolve(name) {
      if (resumeTool !== undefined && name === resumeTool.name) return { kind: "resume" };
      const exposed = exposedByName.get(name);
      if (exposed !== undefined) return { kind: "invoke", id: exposed };
      const holders = unexposedHolders.get(name);
      if (holders?.length === 1) return { kind: "invoke", id: holders[0]! };
      // A capability is addressable only by its wire name (§1.4).
      const wireName = nameById.get(name);
      if (wireName !== undefined && wireName !== name) return { kind: "concealed" };
      return { kind: "invoke", id: name };
    },
  };
}

function assertValidName(name: unknown, owner: string): asserts name is string {
  if (typeof name !== "string" || !MCP_TOOL_NAME.test(name)) {
    throw new TypeError(
      `createMCPServer: invalid MCP tool name ${JSON.stringify(name)} for ${quoteId(owner)}: tool names must match ${MCP_TOOL_NAME} (SEP-986). ` +
        "Set meta.adapters.mcp.toolName or adjust toolNaming.",
    );
  }
}

function collisionError(name: string, first: string, second: string): TypeError {
  return new TypeError(
    `createMCPServer: tool name collision on mcp: "${name}" is claimed by ${quoteId(first)} and ${quoteId(second)}. ` +
      "Names are never renamed silently: give one of them meta.adapters.mcp.toolName, or change toolNaming / approvals.resumeTool.name.",
  );
}

function quoteId(owner: string): string {
  return owner.startsWith("the ") ? owner : `"${owner}"`;
}

// MCP requires `type: "object"` at the input schema root (adapters.md §3.4); no schema lists as `{ type: "object" }`.
function assertObjectInputRoot(capability: AgentCapability): void {
  if (capability.inputSchema === undefined) return;
  const schema = toJsonSchema(capability.inputSchema);
  if (schema.type === "object") return;
  throw new TypeError(
    `createMCPServer: the input schema of "${capability.id}" has a non-object root (${JSON.stringify(schema.type ?? null)}); ` +
      "MCP tools take an object of arguments. Wrap the input in an object schema, or stop exposing the capability to mcp.",
  );
}
