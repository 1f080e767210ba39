import { governanceOf, isGovernanceLike, isRegistryLike, isRuntimeLike } from "../snapshot/source-shapes.js";
import type { SnapshotSource } from "../snapshot/snapshot-builder.js";
import type { EntrySource } from "../snapshot/types.js";

type Shape = "governance" | "runtime" | "registry";

/** An export that looks like a governance, runtime or registry (docs/architecture/spec/cli.md#cli-5-3), with what decides rank and identity. */
type Match = { name: string; shape: Shape; rank: number; value: SnapshotSource; registry: object; governance: object | undefined };

export type ResolvedExport =
  | { ok: true; exportName: string; source: SnapshotSource; entrySource: EntrySource; runtimeAvailableAs?: string }
  | { ok: false; message: string };

/**
 * Picks the export to read from a module namespace (docs/architecture/spec/cli.md#cli-5-3). Functions are never called and Promises
 * never awaited. Without `exportName`: governance > runtime > registry over one registry; different
 * registries, or top-rank values carrying different governance objects, are ambiguous.
 */
export function resolveExport(
  namespace: Record<string, unknown>,
  exportName: string | undefined,
  entry: string,
): ResolvedExport {
  const names = Object.keys(namespace);
  return exportName === undefined ? resolveAutomatically(namespace, names, entry) : resolveNamed(namespace, names, exportName, entry);
}

function resolveNamed(namespace: Record<string, unknown>, names: string[], exportName: string, entry: string): ResolvedExport {
  if (!names.includes(exportName)) {
    return { ok: false, message: `export "${exportName}" not found in ${entry} (exports: ${list(names)})` };
  }
  const value = namespace[exportName];
  if (typeof value === "function") {
    // Calling it could connect, migrate or charge a card (docs/architecture/spec/cli.md#cli-5-3).
    return {
      ok: false,
      message:
        `export "${exportName}" of ${entry} is a function; orpc-agent never calls application code. ` +
        "Export the registry, governance or runtime it builds instead.",
    };
  }
  if (isThenable(value)) {
    return {
      ok: false,
      message: `export "${exportName}" of ${entry} is a Promise; orpc-agent does not await exports. Export the resolved registry, governance or runtime.`,
    };
  }
  const match = classify(exportName, value);
  if (match === undefined) {
    return { ok: false, message: `export "${exportName}" of ${entry} is not a capability registry, governance or runtime` };
  }
  const resolved = toResolved(match);
  if (match.shape === "registry") {
    // A governance or runtime over this very registry would also record runtime policies (docs/architecture/spec/cli.md#cli-5-3).
    const governed = matches(namespace, names)
      .filter((other) => other.shape !== "registry" && other.registry === match.registry)
      .sort((a, b) => b.rank - a.rank)[0];
    if (governed !== undefined) return { ...resolved, runtimeAvailableAs: governed.name };
  }
  return resolved;
}

function resolveAutomatically(namespace: Record<string, unknown>, names: string[], entry: string): ResolvedExport {
  const found = matches(namespace, names);
  if (found.length === 0) {
    const checked = names.filter((name) => typeof namespace[name] !== "function");
    const skipped = names.filter((name) => typeof namespace[name] === "function");
    const functions = skipped.length > 0 ? `; functions skipped, never called: ${list(skipped)}` : "";
    return { ok: false, message: `no capability registry exported from ${entry} (exports checked: ${list(checked)}${functions})` };
  }
  const registries = new Set(found.map((match) => match.registry));
  if (registries.size > 1) {
    return {
      ok: false,
      message:
        `${entry} exports capabilities from ${registries.size} different registries: ${found.map(describe).join(", ")}. ` +
        "Choose one with --export <name>.",
    };
  }
  // One registry: a governance dominates the runtimes built from it, a runtime its own registry (ADR-016 §7).
  const topRank = Math.max(...found.map((match) => match.rank));
  const top = found.filter((match) => match.rank === topRank);
  if (new Set(top.map((match) => match.governance)).size > 1) {
    return {
      ok: false,
      message: `${entry} exports different governance objects over one registry: ${top.map(describe).join(", ")}. Choose one with --export <name>.`,
    };
  }
  return toResolved(top[0] as Match);
}

function matches(namespace: Record<string, unknown>, names: string[]): Match[] {
  return names.flatMap((name) => {
    const value = namespace[name];
    if (typeof value === "function") return [];
    const match = classify(name, value);
    return match === undefined ? [] : [match];
  });
}

function classify(name: string, value: unknown): Match | undefined {
  if (isGovernanceLike(value)) {
    return { name, shape: "governance", rank: 2, value, registry: value.registry, governance: value };
  }
  if (isRuntimeLike(value)) {
    return { name, shape: "runtime", rank: 1, value, registry: value.registry, governance: governanceOf(value) };
  }
  if (isRegistryLike(value)) return { name, shape: "registry", rank: 0, value, registry: value, governance: undefined };
  return undefined;
}

function toResolved(match: Match): Extract<ResolvedExport, { ok: true }> {
  const entrySource: EntrySource =
    match.shape === "runtime" ? (match.governance !== undefined ? "runtime" : "runtime-unreported") : match.shape;
  return { ok: true, exportName: match.name, source: match.value, entrySource };
}

function describe(match: Match): string {
  return `${match.name} (${match.shape})`;
}

function list(names: string[]): string {
  return names.length === 0 ? "none" : names.join(", ");
}

function isThenable(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
