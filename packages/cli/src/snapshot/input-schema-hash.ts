import type { AgentCapability } from "@orpc-agent/core";
import { canonicalJson } from "./canonical-json.js";
import type { CoreFunctions } from "./core-functions.js";
import { sha256 } from "./sha256.js";

/** `sha256:<hex>` of the canonical JSON Schema; `null` without a schema; `"unconvertible"` when conversion throws (docs/architecture/spec/cli.md#cli-6-1). */
export function inputSchemaHash(
  schema: AgentCapability["inputSchema"],
  toJsonSchema: CoreFunctions["toJsonSchema"],
): string | null {
  if (schema === undefined) return null;
  let jsonSchema: unknown;
  try {
    jsonSchema = toJsonSchema(schema);
  } catch {
    // A real state, not an error: its transitions are drift (docs/architecture/spec/cli.md#cli-6-1).
    return "unconvertible";
  }
  return sha256(canonicalJson(jsonSchema));
}
