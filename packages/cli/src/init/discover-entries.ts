import { existsSync } from "node:fs";
import { join } from "node:path";

/** Where `init` looks for an entry, in this order (docs/architecture/spec/cli.md#cli-8-5). */
export const ENTRY_CANDIDATES: readonly string[] = [
  "src/app.ts",
  "src/app.tsx",
  "src/index.ts",
  "src/server.ts",
  "src/runtime.ts",
  "src/capabilities.ts",
  "src/capabilities/index.ts",
  "src/registry.ts",
  "src/agent.ts",
  "app.ts",
  "index.ts",
  "dist/app.js",
  "dist/index.js",
];

/** `--entry` when given, else the candidates that exist under `cwd`, in order; the first is recommended. */
export function discoverEntries(cwd: string, entryFlag: string | undefined, exists: (path: string) => boolean = existsSync): string[] {
  if (entryFlag !== undefined) return [entryFlag];
  return ENTRY_CANDIDATES.filter((candidate) => exists(join(cwd, candidate)));
}
