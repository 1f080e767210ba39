import type { AgentCapability, CapabilityRegistry, MCPToolAnnotations } from "@orpc-agent/core";
import { toJsonSchema } from "@orpc-agent/core/schema";
import { toolAnnotations } from "./annotations.js";
import type { MCPGovernanceOptions } from "./governance-options.js";
import { resumeToolOf, type ResumeTool } from "./resume-tool.js";
import { ConfigurationError, toolNameCollision, toolNameMap } from "@orpc-agent/core/adapter";

/** What a `tools/call` name addresses (docs/architecture/spec/adapters.md#adapters-1-4, docs/architecture/spec/adapters.md#adapters-3-5 steps 2–3). */
export type ToolTarget =
  | { kind: "resume" }
  /** A capability id, or an unresolved name forwarded verbatim so the runtime audits the probe as unknown. */
  | { kind: "invoke"; id: string }
  /** A raw registry id addressed by a different wire name: concealed without invoking. */
  | { kind: "concealed" };

/** The static tool facts of one server: names both ways, annotations and the resume tool. Never per actor. */
export type ToolCatalog = {
  nameOf(capabilityId: string): string | undefined;
  annotationsOf(capabilityId: string): MCPToolAnnotations | undefined;
  resolve(name: string): ToolTarget;
  resumeTool: ResumeTool | undefined;
};

/**
 * Builds the catalog once, at construction, on core's shared tool-name map: invalid names, collisions (resume tool
 * included) and non-object input roots throw `ConfigurationError` (a `TypeError`) here, never on a call
 * (docs/architecture/spec/adapters.md#adapters-1-4, docs/architecture/spec/adapters.md#adapters-3-1, docs/architecture/spec/adapters.md#adapters-3-4). `adapter` is the function the application called, named in messages.
 */
export function buildToolCatalog(registry: CapabilityRegistry, options: MCPGovernanceOptions, adapter: string): ToolCatalog {
  const rules = { surface: "mcp", adapter, validName: MCP_TOOL_NAME, ruleName: "MCP tool names (SEP-986)" } as const;
  const names = toolNameMap(registry, { ...rules, ...(options.toolNaming !== undefined && { toolNaming: options.toolNaming }) });
  const mode = options.annotations ?? "derive";
  const annotations = new Map<string, MCPToolAnnotations | undefined>();
  for (const id of names.exposed.values()) {
    const capability = registry.get(id)!;
    assertObjectInputRoot(capability, adapter);
    annotations.set(id, toolAnnotations(capability.meta, mode));
  }

  const resumeTool = resumeToolOf(options);
  if (resumeTool !== undefined) {
    if (!MCP_TOOL_NAME.test(resumeTool.name)) {
      throw new ConfigurationError(`${adapter}: the resume tool name ${JSON.stringify(resumeTool.name)} is invalid: MCP tool names (SEP-986) must match ${MCP_TOOL_NAME}. Change approvals.resumeTool.name.`);
    }
    const holder = names.exposed.get(resumeTool.name);
    if (holder !== undefined) throw toolNameCollision(rules, resumeTool.name, JSON.stringify(holder), "the approvals resume tool");
  }

  return {
    resumeTool,
    nameOf: names.nameOf,
    annotationsOf: (id) => annotations.get(id),
    resolve(name) {
      if (resumeTool !== undefined && name === resumeTool.name) return { kind: "resume" };
      const id = names.resolve(name);
      return id === undefined ? { kind: "concealed" } : { kind: "invoke", id };
    },
  };
}

/** SEP-986, the SDK's `validateToolName` rule (docs/architecture/spec/adapters.md#adapters-1-4 "Validity"). */
const MCP_TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;

// MCP requires `type: "object"` at the input schema root (docs/architecture/spec/adapters.md#adapters-3-4); no schema lists as `{ type: "object" }`.
function assertObjectInputRoot(capability: AgentCapability, adapter: string): void {
  if (capability.inputSchema === undefined) return;
  const schema = toJsonSchema(capability.inputSchema);
  if (schema.type === "object") return;
  throw new ConfigurationError(
    `${adapter}: the input schema of "${capability.id}" has a non-object root (${JSON.stringify(schema.type ?? null)}); ` +
      "MCP tools take an object of arguments. Wrap the input in an object schema, or stop exposing the capability to mcp.",
  );
}
