import type { AgentCapability } from "./types.js";

/** The surfaces whose adapters present capabilities as named tools. */
export type ToolSurface = "aiSdk" | "mcp";

/**
 * The tool name a capability gets when nothing overrides it: every `.` of the id becomes `_`.
 *
 * @example
 * defaultToolName("orders.refund"); // "orders_refund"
 */
export function defaultToolName(id: string): string {
  return id.replaceAll(".", "_");
}

/**
 * The tool name of a capability on a surface (core.md §2.3): `meta.adapters.<surface>.toolName`,
 * else the adapter's `toolNaming(id)`, else `defaultToolName(id)`. Naming never affects governance.
 */
export function resolveToolName(
  capability: Pick<AgentCapability, "id" | "meta">,
  surface: ToolSurface,
  toolNaming?: (id: string) => string,
): string {
  const override = capability.meta.adapters?.[surface]?.toolName;
  if (override !== undefined) return override;
  return toolNaming === undefined ? defaultToolName(capability.id) : toolNaming(capability.id);
}
