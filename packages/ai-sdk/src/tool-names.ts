import { toolNameMap, type ToolNameMap } from "@orpc-agent/core/adapter";
import type { CapabilityRegistry } from "@orpc-agent/core";

/** What mainstream model providers accept as a tool name (docs/architecture/spec/adapters.md#adapters-1-4, decided there). */
export const VALID_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The names of one `toAISDKTools` build (docs/architecture/spec/adapters.md#adapters-1-4), from core's shared adapter toolkit: tools are the keys of
 * a plain object here, so `Object.prototype` keys are refused too. Memoized per registry and naming function.
 */
export function toolNameMapFor(registry: CapabilityRegistry, toolNaming?: (capabilityId: string) => string): ToolNameMap {
  return toolNameMap(registry, {
    surface: "aiSdk",
    adapter: "toAISDKTools",
    validName: VALID_TOOL_NAME,
    ruleName: "AI SDK tool names",
    objectKeys: true,
    ...(toolNaming !== undefined && { toolNaming }),
  });
}
