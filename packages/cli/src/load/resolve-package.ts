import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

// The conditions an ESM import under Node matches, in the order package authors expect.
const CONDITIONS = new Set(["import", "node", "module-sync", "default"]);

/**
 * Resolves a bare ESM specifier (`pkg`, `@scope/pkg`, `@scope/pkg/sub`) the way `import` would from
 * `fromDir`: walking up `node_modules` and reading `exports` with import conditions. Returns the real
 * path (Node keys module instances by it), or `undefined` when the package is not installed.
 *
 * Used for tsx/jiti (spawned, never imported) and for the application's own core instance.
 */
export function resolvePackageEntry(fromDir: string, specifier: string): string | undefined {
  const segments = specifier.split("/");
  const nameLength = specifier.startsWith("@") ? 2 : 1;
  const name = segments.slice(0, nameLength).join("/");
  const subpath = segments.length > nameLength ? `./${segments.slice(nameLength).join("/")}` : ".";

  for (let dir = fromDir; ; dir = dirname(dir)) {
    const packageDir = join(dir, "node_modules", name);
    const manifestPath = join(packageDir, "package.json");
    if (existsSync(manifestPath)) {
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { exports?: unknown; main?: unknown };
      const target = exportTarget(manifest, subpath);
      if (target === undefined) return undefined;
      const file = join(packageDir, target);
      return existsSync(file) ? realpathSync(file) : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function exportTarget(manifest: { exports?: unknown; main?: unknown }, subpath: string): string | undefined {
  const { exports } = manifest;
  if (exports === undefined || exports === null) {
    if (subpath !== ".") return subpath;
    return typeof manifest.main === "string" ? manifest.main : "index.js";
  }
  const isSubpathMap = typeof exports === "object" && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith("."));
  if (isSubpathMap) return conditionalTarget((exports as Record<string, unknown>)[subpath]);
  return subpath === "." ? conditionalTarget(exports) : undefined;
}

function conditionalTarget(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = conditionalTarget(item);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [condition, nested] of Object.entries(value)) {
      if (!CONDITIONS.has(condition)) continue;
      const target = conditionalTarget(nested);
      if (target !== undefined) return target;
    }
  }
  return undefined;
}
