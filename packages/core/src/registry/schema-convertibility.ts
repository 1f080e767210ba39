import { toJsonSchema } from "../schema/to-json-schema.js";
import type { AgentCapability } from "./types.js";

/**
 * Model surfaces need a JSON Schema of the input, so conversion failures are startup problems,
 * not first-call ones (docs/architecture/spec/core.md#core-2-1, docs/architecture/spec/core.md#core-13). Conversion is memoized, so this also warms discovery.
 */
export function checkSchemaConvertibility(capabilities: readonly AgentCapability[], problems: string[]): void {
  for (const capability of capabilities) {
    const { inputSchema, meta } = capability;
    if (inputSchema === undefined || (meta.expose.aiSdk !== true && meta.expose.mcp !== true)) continue;
    try {
      toJsonSchema(inputSchema);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      problems.push(`${capability.id}: input schema cannot be converted to JSON Schema for aiSdk/mcp: ${reason}`);
    }
  }
}
