// The loader child (docs/architecture/spec/cli.md#cli-5-1): imports the application entry with ORPC_AGENT_INSPECT=1, resolves the
// export, builds the snapshot with the application's own core instance, writes the result to a temp file
// and exits. It never calls an application function or a policy's `evaluate`.
import { writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSnapshotWith } from "../snapshot/snapshot-builder.js";
import type { CoreFunctions } from "../snapshot/core-functions.js";
import { CHILD_EXIT, type ChildPayload, type ChildResult } from "./child-protocol.js";
import { resolvePackageEntry } from "./resolve-package.js";
import { resolveExport } from "./resolve-export.js";

const payload = JSON.parse(process.argv[2] ?? "{}") as ChildPayload;

function finish(code: number, result: ChildResult): never {
  writeFileSync(payload.resultFile, JSON.stringify(result));
  // The application may hold handles open (servers, pools, timers); leaving is the only reliable end.
  process.exit(code);
}

let namespace: Record<string, unknown>;
try {
  namespace = (await import(payload.entryUrl)) as Record<string, unknown>;
} catch (error) {
  finish(CHILD_EXIT.importFailed, { ok: false, message: `could not import ${payload.entry}`, detail: describeError(error) });
}

const resolved = resolveExport(namespace, payload.exportName, payload.entry);
if (!resolved.ok) finish(CHILD_EXIT.exportRefused, { ok: false, message: resolved.message });

try {
  const core = await applicationCore(fileURLToPath(payload.entryUrl));
  const snapshot = buildSnapshotWith(core, resolved.source, { descriptions: payload.descriptions });
  finish(CHILD_EXIT.ok, {
    ok: true,
    snapshot,
    entrySource: resolved.entrySource,
    exportName: resolved.exportName,
    ...(resolved.runtimeAvailableAs !== undefined ? { runtimeAvailableAs: resolved.runtimeAvailableAs } : {}),
  });
} catch (error) {
  finish(CHILD_EXIT.snapshotFailed, {
    ok: false,
    message: `could not build the snapshot of ${payload.entry}: ${error instanceof Error ? error.message : String(error)}`,
    detail: describeError(error),
  });
}

/**
 * The core the application itself imports, resolved from the entry's directory: a converter the app
 * registered lives in that instance only (docs/architecture/spec/cli.md#cli-3). Falls back to the core next to the CLI.
 */
async function applicationCore(entryPath: string): Promise<CoreFunctions> {
  const from = dirname(entryPath);
  const main = resolvePackageEntry(from, "@orpc-agent/core");
  const schema = resolvePackageEntry(from, "@orpc-agent/core/schema");
  // A computed specifier: the bundler must not inline core into the child.
  const load = (path: string | undefined, fallback: string) => import(path !== undefined ? pathToFileURL(path).href : fallback);
  const [coreModule, schemaModule] = await Promise.all([load(main, "@orpc-agent/core"), load(schema, "@orpc-agent/core/schema")]);
  return { toJsonSchema: schemaModule.toJsonSchema, defaultToolName: coreModule.defaultToolName };
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
