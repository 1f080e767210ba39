import { LoadError } from "../load/load-error.js";
import { loadSnapshot, type LoadedSnapshot } from "../load/load-snapshot.js";
import type { CommandOptions } from "./command-options.js";
import { couldNotRun, notice, type CliIo } from "./io.js";

/**
 * Loads the application for a loading command; on failure prints why and returns exit code 2.
 * The `runtimeAvailableAs` hint goes to stderr so it survives `--json`, `-o -` and pipes (docs/architecture/spec/cli.md#cli-5-3).
 */
export async function loadApp(options: CommandOptions, io: CliIo): Promise<LoadedSnapshot | 2> {
  if (options.entry === undefined) return missingEntry(io);
  let loaded: LoadedSnapshot;
  try {
    loaded = await loadSnapshot({
      entry: options.entry,
      ...(options.exportName !== undefined ? { exportName: options.exportName } : {}),
      descriptions: options.descriptions,
      timeoutMs: options.timeoutMs,
      cwd: options.cwd,
      ...(options.importSpecifier !== undefined ? { importSpecifier: options.importSpecifier } : {}),
    });
  } catch (error) {
    if (error instanceof LoadError) return couldNotRun(io, error.message, error.detail);
    throw error;
  }
  if (loaded.runtimeAvailableAs !== undefined) {
    notice(
      io,
      `read a bare registry, so runtime policies are not recorded this way. ` +
        `Export "${loaded.runtimeAvailableAs}" governs the same registry: use --export ${loaded.runtimeAvailableAs}`,
    );
  }
  return loaded;
}

/** A loading command without an entry (docs/architecture/spec/cli.md#cli-4); only `init` discovers entries. */
export function missingEntry(io: CliIo): 2 {
  return couldNotRun(io, 'no entry: pass --entry <path> or set "orpcAgent": { "entry": "<path>" } in package.json (orpcAgent.entry)');
}
