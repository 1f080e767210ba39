import { resolve } from "node:path";
import type { Flags, Format } from "../args/parse-args.js";
import type { AgentConfig } from "../config/read-config.js";
import type { FailOn } from "../drift/gate.js";
import { DEFAULT_TIMEOUT_MS } from "../load/load-snapshot.js";
import type { Verbosity } from "../render/verbosity.js";

export const DEFAULT_SNAPSHOT = "capabilities.snapshot.json";

/** Flags merged with config and defaults: flag > config > default (docs/architecture/spec/cli.md#cli-4). */
export type CommandOptions = {
  cwd: string;
  entry: string | undefined;
  exportName: string | undefined;
  /** The snapshot path as given (for messages) and resolved against `cwd`. */
  snapshotLabel: string;
  snapshotPath: string;
  /** Whether the snapshot path came from a flag or config rather than the default. */
  snapshotCustom: boolean;
  out: string | undefined;
  failOn: FailOn;
  format: Format;
  verbosity: Verbosity;
  json: boolean;
  plain: boolean;
  descriptions: boolean;
  importSpecifier: string | undefined;
  timeoutMs: number;
};

export function commandOptions(flags: Flags, config: AgentConfig, cwd: string): CommandOptions {
  const snapshotLabel = flags.snapshot ?? config.snapshot ?? DEFAULT_SNAPSHOT;
  return {
    cwd,
    entry: flags.entry ?? config.entry,
    exportName: flags.export ?? config.export,
    snapshotLabel,
    snapshotPath: resolve(cwd, snapshotLabel),
    snapshotCustom: snapshotLabel !== DEFAULT_SNAPSHOT,
    out: flags.out,
    failOn: flags.failOn ?? "any",
    format: flags.format ?? "plain",
    verbosity: flags.verbosity ?? "normal",
    json: flags.json ?? false,
    plain: flags.plain ?? false,
    descriptions: flags.descriptions ?? true,
    importSpecifier: flags.import,
    timeoutMs: flags.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
}

/** The command that rewrites the baseline for these options, for notices and hints. */
export function snapshotCommand(options: Pick<CommandOptions, "entry" | "exportName" | "snapshotLabel" | "snapshotCustom">): string {
  const parts = ["orpc-agent snapshot", `--entry ${options.entry ?? "<entry>"}`];
  if (options.exportName !== undefined) parts.push(`--export ${options.exportName}`);
  if (options.snapshotCustom) parts.push(`--snapshot ${options.snapshotLabel}`);
  return parts.join(" ");
}
