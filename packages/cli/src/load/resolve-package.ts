import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

// The conditions every ESM import under Node matches.
const DEFAULT_CONDITIONS = ["import", "node", "module-sync", "default"];

/**
 * The conditions this process resolves with: the defaults plus any `--conditions`/`-C` given on the
 * command line or in NODE_OPTIONS (e.g. a workspace's source condition), so the loader child picks the
 * very files the application imports.
 */
export function activeConditions(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ""): Set<string> {
  const args = [...execArgv, ...nodeOptions.split(/\s+/).filter((arg) => arg !== "")];
  const conditions = new Set(DEFAULT_CONDITIONS);
  args.forEach((arg, index) => {
    const inline = /^(?:--conditions|-C)=(.+)$/.exec(arg);
    if (inline !== null) conditions.add(inline[1] as string);
    else if ((arg === "--conditions" || arg === "-C") && args[index + 1] !== undefined) conditions.add(args[index + 1] as string);
  });
  return conditions;
}

/**
 * Resolves a bare ESM specifier (`pkg`, `@scope/pkg`, `@scope/pkg/sub`) the way `import` would from
 * `fromDir`: walking up `node_modules` and reading `exports` with import conditions. Returns the real
 * path (Node keys module instances by it), or `undefined` when the package is not installed.
 *
 * Used for tsx/jiti (spawned, never imported) and for the application's own core instance.
 */
export function resolvePackageEntry(
  fromDir: string,
  specifier: string,
  conditions: ReadonlySet<string> = activeConditions(),
): string | undefined {
  const segments = specifier.split("/");
  const nameLength = specifier.startsWith("@") ? 2 : 1;
  const name = segments.slice(0, nameLength).join("/");
  const subpath = segments.length > nameLength ? `./${segments.slice(nameLength).join("/")}` : ".";

  for (let dir = fromDir; ; dir = dirname(dir)) {
    const packageDir = join(dir, "node_modules", name);
    const manifestPath = join(packageDir, "package.json");
    if (existsSync(manifestPath)) {
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { exports?: unknown; main?: unknown };
      const target = exportTarget(manifest, subpath, conditions);
      if (target === undefined) return undefined;
      const file = join(packageDir, target);
      return existsSync(file) ? realpathSync(file) : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function exportTarget(
  manifest: { exports?: unknown; main?: unknown },
  subpath: string,
  conditions: ReadonlySet<string>,
): string | undefined {
  const { exports } = manifest;
  if (exports === undefined || exports === null) {
    if (subpath !== ".") return subpath;
    return typeof manifest.main === "string" ? manifest.main : "index.js";
  }
  const isSubpathMap = typeof exports === "object" && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith("."));
  if (isSubpathMap) return conditionalTarget((exports as Record<string, unknown>)[subpath], conditions);
  return subpath === "." ? conditionalTarget(exports, conditions) : undefined;
}

function conditionalTarget(value: unknown, conditions: ReadonlySet<string>): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = conditionalTarget(item, conditions);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [condition, nested] of Object.entries(value)) {
      if (!conditions.has(condition)) continue;
      const target = conditionalTarget(nested, conditions);
      if (target !== undefined) return target;
    }
  }
  return undefined;
}
