import { existsSync, readFileSync } from "node:fs";
import { diffSnapshots } from "../drift/diff-snapshots.js";
import { failingChanges } from "../drift/gate.js";
import { driftNotices } from "../drift/notices.js";
import type { Change } from "../drift/types.js";
import { renderChanges } from "../render/changes.js";
import { renderGithub } from "../render/github.js";
import { renderInventory } from "../render/inventory.js";
import { renderJson } from "../render/json.js";
import { renderMarkdown } from "../render/markdown.js";
import { colorEnabled } from "../render/terminal.js";
import { parseSnapshot } from "../snapshot/parse-snapshot.js";
import type { CapabilitySnapshot, EntrySource } from "../snapshot/types.js";
import { snapshotCommand, type CommandOptions } from "./command-options.js";
import { couldNotRun, type CliIo } from "./io.js";
import { loadApp, missingEntry } from "./load-app.js";

/**
 * `orpc-agent check` (docs/architecture/spec/cli.md#cli-4, docs/architecture/spec/cli.md#cli-7): compares the loaded app with the committed snapshot and sets the
 * exit code: 0 clean, 1 failing drift, 2 could not run. Never the Ink view.
 */
export async function runCheck(options: CommandOptions, io: CliIo): Promise<number> {
  if (options.entry === undefined) return missingEntry(io);
  const baseline = readBaseline(options, io);
  if (baseline === 2) return 2;
  const loaded = await loadApp(options, io);
  if (loaded === 2) return 2;

  const changes = diffSnapshots(baseline, loaded.snapshot);
  const failing = failingChanges(changes, options.failOn);
  const exitCode = failing.length > 0 ? 1 : 0;

  // Notices go to stderr whatever --fail-on and --format say (docs/architecture/spec/cli.md#cli-7-4).
  for (const line of driftNotices(baseline, loaded.snapshot, options.snapshotLabel, snapshotCommand(options))) {
    io.stderr.write(`${line}\n`);
  }
  io.stdout.write(render(changes, options, io, loaded.snapshot, loaded.entrySource));
  if (options.format === "plain" && exitCode === 1) {
    io.stderr.write(`Update the snapshot in this change: ${snapshotCommand(options)}\n`);
  }
  return exitCode;
}

function readBaseline(options: CommandOptions, io: CliIo): CapabilitySnapshot | 2 {
  if (!existsSync(options.snapshotPath)) {
    return couldNotRun(io, `${options.snapshotLabel} was not found. Create the baseline with: ${snapshotCommand(options)}`);
  }
  try {
    return parseSnapshot(readFileSync(options.snapshotPath, "utf8"));
  } catch (error) {
    return couldNotRun(io, `${options.snapshotLabel}: ${(error as Error).message}`);
  }
}

function render(changes: Change[], options: CommandOptions, io: CliIo, current: CapabilitySnapshot, entrySource: EntrySource): string {
  switch (options.format) {
    case "json":
      return renderJson(changes, options.failOn);
    case "md":
      return renderMarkdown(changes);
    case "github":
      return renderGithub(changes);
    case "plain": {
      const mode = { color: colorEnabled({ stdoutIsTTY: io.stdout.isTTY === true, env: io.env }) };
      const report = renderChanges(changes, mode, options.verbosity);
      // At detail the reader also sees what was gated (docs/architecture/spec/cli.md#cli-8-3).
      if (options.verbosity !== "detail") return report;
      return `${report}\n${renderInventory(current, mode, entrySource, "detail")}`;
    }
  }
}
