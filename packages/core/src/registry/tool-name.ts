import type { AgentCapability } from "./types.js";

/** The surfaces whose adapters present capabilities as named tools. */
export type ToolSurface = "aiSdk" | "mcp";

/**
 * The tool name a capability gets when nothing overrides it: every `.` of the id becomes `_`.
 *
 * @example
 * import { defaultToolName } from "@orpc-agent/core";
 * defaultToolName("orders.refund"); // "orders_refund"
 */
export function defaultToolName(id: string): string {
  return id.replaceAll(".", "_");
}

/**
 * `true` for a name that is an `Object.prototype` key (`__proto__`, `constructor`, `toString`, ...): as a key of a
 * tool set object it would set a prototype or shadow a method, a silently missing tool. Adapters refuse it at build.
 *
 * @example
 * import { isReservedToolName } from "@orpc-agent/core";
 * isReservedToolName("__proto__"); // true
 */
export function isReservedToolName(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(Object.prototype, name);
}

/**
 * The tool name of a capability on a surface (docs/architecture/spec/core.md#core-2-3): `meta.adapters.<surface>.toolName`,
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
