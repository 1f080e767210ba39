import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { CapabilitySnapshot, EntrySource } from "../snapshot/types.js";
import { CHILD_EXIT } from "./child-protocol.js";
import { LoadError } from "./load-error.js";
import { resolvePackageEntry } from "./resolve-package.js";
import { runLoaderChild, type ChildOutcome } from "./run-child.js";
import { isTypeScriptEntry, selectLoader } from "./select-loader.js";

export type LoadSnapshotOptions = {
  /** Module exporting a governance, runtime or registry; relative to `cwd`. */
  entry: string;
  exportName?: string;
  descriptions?: boolean;
  /** Default 30 000. */
  timeoutMs?: number;
  cwd?: string;
  /** `node --import` for the child; replaces loader detection. */
  importSpecifier?: string;
};

export type LoadedSnapshot = {
  snapshot: CapabilitySnapshot;
  entrySource: EntrySource;
  /** The `--import` the successful attempt used, if any. */
  usedImport: string | undefined;
  /** Set when a bare registry was read while the module also exports a governance or runtime over it. */
  runtimeAvailableAs?: string;
};

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Loads the application in an isolated, time-boxed child process and returns its snapshot (docs/architecture/spec/cli.md#cli-5).
 * Rejects with a `LoadError` when the entry cannot be imported, the export is refused or ambiguous, the
 * child times out or dies, or a TypeScript entry has no loader.
 *
 * @example
 * import { loadSnapshot } from "@orpc-agent/cli";
 * const { snapshot } = await loadSnapshot({ entry: "src/agent.ts", cwd: process.cwd() });
 */
export async function loadSnapshot(options: LoadSnapshotOptions): Promise<LoadedSnapshot> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const entryPath = resolve(cwd, options.entry);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new LoadError(`the loader timeout must be > 0 (got ${timeoutMs})`);
  if (!existsSync(entryPath)) throw new LoadError(`entry ${options.entry} was not found (looked at ${entryPath})`);

  const plan = selectLoader({
    entry: options.entry,
    importSpecifier: options.importSpecifier,
    features: process.features as { typescript?: unknown },
    resolveLoader: (specifier) => resolvePackageEntry(cwd, specifier),
  });
  if (!plan.ok) throw new LoadError(plan.message);

  const attempt = (importSpecifier: string | undefined) =>
    runLoaderChild({
      childScript: fileURLToPath(new URL("./loader-child.js", import.meta.url)),
      importSpecifier,
      cwd,
      timeoutMs,
      payload: {
        entryUrl: pathToFileURL(entryPath).href,
        entry: options.entry,
        exportName: options.exportName,
        descriptions: options.descriptions ?? true,
      },
    });

  let used = plan.first;
  let outcome = await attempt(used);
  // Native stripping cannot handle enums, namespaces or decorators: retry once with the project's loader.
  if (outcome.code === CHILD_EXIT.importFailed && plan.retry !== undefined && isTypeScriptEntry(options.entry)) {
    const retried = await attempt(plan.retry);
    // Report the retry's diagnosed outcome, else the first attempt's (docs/architecture/spec/cli.md#cli-5-2).
    if (retried.result !== undefined || outcome.result === undefined) {
      outcome = retried;
      used = plan.retry;
    }
  }

  const result = outcome.result;
  if (!outcome.timedOut && outcome.code === CHILD_EXIT.ok && result?.ok === true) {
    return {
      snapshot: result.snapshot,
      entrySource: result.entrySource,
      usedImport: used,
      ...(result.runtimeAvailableAs !== undefined ? { runtimeAvailableAs: result.runtimeAvailableAs } : {}),
    };
  }
  throw failure(outcome, options.entry, timeoutMs);
}

function failure(outcome: ChildOutcome, entry: string, timeoutMs: number): LoadError {
  if (outcome.timedOut) {
    return new LoadError(
      `loading ${entry} timed out after ${timeoutMs}ms. Import-time work is probably waiting on something: ` +
        'guard it with `if (process.env.ORPC_AGENT_INSPECT !== "1")`, defer it until first use, or raise --timeout.',
      outcome.output.trim() === "" ? undefined : `output before the timeout:\n${outcome.output}`,
    );
  }
  if (outcome.result !== undefined && !outcome.result.ok) {
    return new LoadError(outcome.result.message, outcome.result.detail);
  }
  const how = outcome.signal !== null ? `was killed by ${outcome.signal}` : `exited with code ${outcome.code}`;
  return new LoadError(
    `the loader child for ${entry} ${how} without a result`,
    outcome.output.trim() === "" ? "(it printed nothing)" : outcome.output,
  );
}
