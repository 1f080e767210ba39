import type { AgentMeta, MCPToolAnnotations } from "@orpc-agent/core";

/**
 * MCP tool annotations, hints only and never governance (docs/architecture/spec/adapters.md#adapters-3-2). `"derive"` maps `sideEffect` and
 * `idempotent` by the table, then lets `meta.adapters.mcp.annotations` win per key; `"meta-only"` takes the meta
 * object alone. `undefined` when nothing remains, so the field is omitted.
 */
export function toolAnnotations(meta: AgentMeta, mode: "derive" | "meta-only"): MCPToolAnnotations | undefined {
  const fromMeta = meta.adapters?.mcp?.annotations ?? {};
  const merged = mode === "derive" ? { ...derivedAnnotations(meta), ...fromMeta } : { ...fromMeta };
  return Object.keys(merged).length === 0 ? undefined : merged;
}

function derivedAnnotations(meta: AgentMeta): MCPToolAnnotations {
  switch (meta.sideEffect) {
    case "none":
    case "read":
      return { readOnlyHint: true, openWorldHint: false };
    case "write":
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: meta.idempotent === true, openWorldHint: false };
    case "destructive":
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: meta.idempotent === true, openWorldHint: false };
    case "external":
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: meta.idempotent === true, openWorldHint: true };
  }
}
