import type { AgentCapability, CapabilityRegistry } from "../../registry/types.js";
import { resolveToolName, type ToolSurface } from "../../registry/tool-name.js";

/** Per surface, with the meaning of that adapter's `toolNaming` option (docs/architecture/spec/adapters.md#adapters-1-4). */
export type ToolNaming = { aiSdk?: (id: string) => string; mcp?: (id: string) => string };

const TOOL_SURFACES: readonly ToolSurface[] = ["aiSdk", "mcp"];

/**
 * Both tool names of a capability, whether or not it is exposed there (docs/architecture/spec/distributed.md#distributed-2-2): a pure function
 * of the id and static overrides reveals nothing and keeps bridges consistent with local adapters.
 */
export function remoteToolNames(capability: Pick<AgentCapability, "id" | "meta">, toolNaming: ToolNaming | undefined): { aiSdk: string; mcp: string } {
  return {
    aiSdk: resolveToolName(capability, "aiSdk", toolNaming?.aiSdk),
    mcp: resolveToolName(capability, "mcp", toolNaming?.mcp),
  };
}

/**
 * Throws a `TypeError` naming both ids when two capabilities exposed on a surface share a tool name under
 * the service's `toolNaming`. One collision domain everywhere: exposure decides, the actor plays no part.
 * Surfaces without a `toolNaming` function were already checked by the registry build.
 */
export function assertNoToolNameCollisions(registry: CapabilityRegistry, toolNaming: ToolNaming | undefined): void {
  for (const surface of TOOL_SURFACES) {
    const naming = toolNaming?.[surface];
    if (naming === undefined) continue;
    const owners = new Map<string, string>();
    for (const capability of registry.capabilities()) {
      if (capability.meta.expose[surface] !== true) continue;
      const name = resolveToolName(capability, surface, naming);
      const owner = owners.get(name);
      if (owner !== undefined) {
        throw new TypeError(
          `Tool name collision on ${surface}: "${name}" names both ${owner} and ${capability.id}; ` +
            `change toolNaming.${surface} of the invocation service or set meta.adapters.${surface}.toolName on one of them.`,
        );
      }
      owners.set(name, capability.id);
    }
  }
}
