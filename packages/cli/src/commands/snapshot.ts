import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { snapshotJson } from "../snapshot/snapshot-json.js";
import type { CommandOptions } from "./command-options.js";
import { couldNotRun, type CliIo } from "./io.js";
import { loadApp } from "./load-app.js";

/** `orpc-agent snapshot` (docs/architecture/spec/cli.md#cli-4): writes to `--out` or the snapshot path; `-o -` writes to stdout. */
export async function runSnapshot(options: CommandOptions, io: CliIo): Promise<number> {
  const loaded = await loadApp(options, io);
  if (loaded === 2) return 2;
  const text = snapshotJson(loaded.snapshot);
  if (options.out === "-") {
    io.stdout.write(text);
    return 0;
  }
  const label = options.out ?? options.snapshotLabel;
  const path = options.out !== undefined ? resolve(options.cwd, options.out) : options.snapshotPath;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  } catch (error) {
    return couldNotRun(io, `could not write ${label}: ${(error as Error).message}`);
  }
  const count = loaded.snapshot.capabilities.length;
  io.stderr.write(`wrote ${label} (${count} ${count === 1 ? "capability" : "capabilities"})\n`);
  return 0;
}
