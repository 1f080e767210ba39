import { resolveToolName, type ToolSurface } from "./tool-name.js";
import type { AgentCapability } from "./types.js";

const TOOL_SURFACES: readonly ToolSurface[] = ["aiSdk", "mcp"];

/**
 * Tool names must be unique per surface among the capabilities exposed there (docs/architecture/spec/core.md#core-2-1).
 * Unexposed surfaces never collide; adapters re-check with their own `toolNaming`.
 */
export function checkToolNameCollisions(capabilities: readonly AgentCapability[], problems: string[]): void {
  for (const surface of TOOL_SURFACES) {
    const owners = new Map<string, string>();
    for (const capability of capabilities) {
      if (capability.meta.expose[surface] !== true) continue;
      const name = resolveToolName(capability, surface);
      const owner = owners.get(name);
      if (owner === undefined) {
        owners.set(name, capability.id);
      } else {
        problems.push(
          `${capability.id}: ${surface} tool name "${name}" collides with capability ${owner}; ` +
            `set meta.adapters.${surface}.toolName on one of them`,
        );
      }
    }
  }
}
