import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Whether the module at `moduleUrl` is the script Node was started with (`node …/dist/cli.js`), also when
 * started through a symlink (node_modules/.bin): Node resolves the main module's symlinks for
 * `import.meta.url` but leaves `process.argv[1]` as typed, so both sides are compared as real paths.
 */
export function isMainModule(moduleUrl: string, argv1: string | undefined): boolean {
  if (argv1 === undefined) return false;
  try {
    return realpathSync(argv1) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
