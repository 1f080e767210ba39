import type { AgentCapability } from "@orpc-agent/core";

/** SEP-986, the SDK's `validateToolName` rule (adapters.md §1.4 "Validity"). */
export const MCP_TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The wire name of a capability on `mcp`, first match wins (adapters.md §1.4): `meta.adapters.mcp.toolName`, then
 * `toolNaming(id)`, then core's default (every `.` becomes `_`). Re-stated here rather than imported, since the
 * precedence is part of this adapter's contract.
 */
export function mcpToolName(capability: Pick<AgentCapability, "id" | "meta">, toolNaming?: (id: string) => string): string {
  const fromMeta = capability.meta.adapters?.mcp?.toolName;
  if (fromMeta !== undefined) return fromMeta;
  return toolNaming ? toolNaming(capability.id) : capability.id.replaceAll(".", "_");
}
