import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { discoverEntries } from "../init/discover-entries.js";
import { configByHand } from "../init/package-json.js";
import { runInitWizard } from "../init/run-init-wizard.js";
import { LoadError } from "../load/load-error.js";
import { loadSnapshot } from "../load/load-snapshot.js";
import { interactiveTerminal } from "../render/terminal.js";
import type { CommandOptions } from "./command-options.js";
import type { AgentConfig } from "../config/read-config.js";
import { couldNotRun, notice, type CliIo } from "./io.js";

const INSTALL_HINT = "init needs the optional packages ink and react: npm install --save-dev ink react";

/**
 * `orpc-agent init` (docs/architecture/spec/cli.md#cli-8-5): discover candidates, require an interactive terminal and Ink, then run
 * the wizard. It never writes a guessed, unconfirmed config: every refusal prints the config to set by hand.
 */
export async function runInit(
  options: CommandOptions,
  given: { entryFlag: string | undefined; config: AgentConfig },
  io: CliIo,
): Promise<number> {
  const { config } = given;
  // Only a flag names the entry outright; a configured one is what init is about to update.
  const candidates = discoverEntries(options.cwd, given.entryFlag);
  if (candidates.length === 0) {
    return couldNotRun(
      io,
      "init found no entry candidate (src/app.ts, src/index.ts, src/agent.ts, … dist/index.js). Pass --entry <path>, or set by hand in package.json:",
      configByHand(undefined),
    );
  }
  const byHand = configByHand(candidates[0]);

  // The UI bridge is imported lazily; only `inspect` and `init` ever reach it.
  const { inkPrompter, loadUi } = await import("../ui/bridge.js");
  if (!interactiveTerminal({ stdoutIsTTY: io.stdout.isTTY === true, stdinIsTTY: io.stdin.isTTY === true, env: io.env })) {
    // Also say whether Ink is installed, so a non-interactive run learns everything it needs at once.
    const ui = await loadUi();
    const detail = `${ui.available ? "" : `${INSTALL_HINT}\n`}Set this in package.json yourself:\n${byHand}`;
    return couldNotRun(io, "init needs an interactive terminal (stdin and stdout a TTY, CI unset, NO_COLOR not set).", detail);
  }
  if (config.entry !== undefined) notice(io, `package.json already sets orpcAgent.entry (${config.entry}); init will update it.`);

  const ui = await inkPrompter({ stdin: io.stdin, stdout: io.stdout });
  if (!ui.ok) return couldNotRun(io, `${INSTALL_HINT} (${ui.reason})`, `Or set this in package.json yourself:\n${byHand}`);

  const packageJsonPath = join(options.cwd, "package.json");
  return runInitWizard({
    candidates,
    exportName: options.exportName,
    snapshotLabel: options.snapshotLabel,
    checkCommand: options.snapshotCustom && config.snapshot !== options.snapshotLabel ? `orpc-agent check --snapshot ${options.snapshotLabel}` : "orpc-agent check",
    load: (entry, exportName) =>
      loadSnapshot({
        entry,
        ...(exportName !== undefined ? { exportName } : {}),
        descriptions: options.descriptions,
        timeoutMs: options.timeoutMs,
        cwd: options.cwd,
        ...(options.importSpecifier !== undefined ? { importSpecifier: options.importSpecifier } : {}),
      }).catch((error: unknown) => {
        throw error instanceof LoadError ? error : new LoadError(String(error));
      }),
    readPackageJson: () => (existsSync(packageJsonPath) ? readFileSync(packageJsonPath, "utf8") : undefined),
    writePackageJson: (text) => writeFileSync(packageJsonPath, text),
    writeSnapshot: (text) => {
      mkdirSync(dirname(options.snapshotPath), { recursive: true });
      writeFileSync(options.snapshotPath, text);
    },
    prompter: ui.prompter,
  });
}
