import { renderInventory } from "../render/inventory.js";
import { colorEnabled, inkTerminal } from "../render/terminal.js";
import { snapshotJson } from "../snapshot/snapshot-json.js";
import type { CommandOptions } from "./command-options.js";
import type { CliIo } from "./io.js";
import { loadApp } from "./load-app.js";

/**
 * `orpc-agent inspect` (docs/architecture/spec/cli.md#cli-4): `--json` prints the snapshot; an interactive terminal gets the Ink
 * view when ink and react import; everything else gets exactly the `--plain` output.
 */
export async function runInspect(options: CommandOptions, io: CliIo): Promise<number> {
  const loaded = await loadApp(options, io);
  if (loaded === 2) return 2;
  if (options.json) {
    io.stdout.write(snapshotJson(loaded.snapshot));
    return 0;
  }
  const facts = { stdoutIsTTY: io.stdout.isTTY === true, env: io.env };
  if (!options.plain && inkTerminal(facts)) {
    // The UI bridge is imported lazily, so nothing on the plain path (or in `check`) reaches ink or react.
    const { showInventoryView } = await import("../ui/bridge.js");
    const shown = await showInventoryView({
      snapshot: loaded.snapshot,
      entrySource: loaded.entrySource,
      verbosity: options.verbosity,
      stdout: io.stdout,
    });
    if (shown) return 0;
  }
  io.stdout.write(renderInventory(loaded.snapshot, { color: colorEnabled(facts) }, loaded.entrySource, options.verbosity));
  return 0;
}
