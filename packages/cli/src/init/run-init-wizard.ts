import type { LoadedSnapshot } from "../load/load-snapshot.js";
import { renderHeadline } from "../render/headline.js";
import { snapshotJson } from "../snapshot/snapshot-json.js";
import { addCheckScript, CHECK_SCRIPT_NAME, mergeAgentConfig } from "./package-json.js";
import { PromptCancelled, type Prompter } from "./prompter.js";

export type InitWizardDeps = {
  /** Entry candidates, the recommended one first. */
  candidates: readonly string[];
  exportName: string | undefined;
  snapshotLabel: string;
  /** The check command the script should run (adds `--snapshot` when the path is not configured). */
  checkCommand: string;
  /** The same child-process loader as `check` (docs/architecture/spec/cli.md#cli-8-5 step 4). */
  load: (entry: string, exportName: string | undefined) => Promise<LoadedSnapshot>;
  readPackageJson: () => string | undefined;
  writePackageJson: (text: string) => void;
  writeSnapshot: (text: string) => void;
  prompter: Prompter;
};

/**
 * The `init` wizard (docs/architecture/spec/cli.md#cli-8-5 steps 4–5): pick an entry, load it, offer the governed export, show the
 * findings, confirm. Nothing is written before the confirmation; declining exits 0.
 */
export async function runInitWizard(deps: InitWizardDeps): Promise<number> {
  const { prompter } = deps;
  try {
    const entry = await prompter.select(
      "Which module exports your governance, runtime or registry?",
      deps.candidates.map((candidate, index) => ({ label: index === 0 ? `${candidate} (recommended)` : candidate, value: candidate })),
    );

    let exportName = deps.exportName;
    let loaded = await tryLoad(deps, entry, exportName);
    if (loaded === undefined) return 2;

    if (loaded.runtimeAvailableAs !== undefined) {
      const governed = loaded.runtimeAvailableAs;
      const choice = await prompter.select(`Export "${governed}" governs this registry and records runtime policies. Read it instead?`, [
        { label: `Use --export ${governed} (recommended)`, value: governed },
        { label: `Keep ${exportName ?? "the bare registry"} (runtime policies not observed)`, value: exportName },
      ]);
      if (choice !== exportName) {
        exportName = choice;
        loaded = await tryLoad(deps, entry, exportName);
        if (loaded === undefined) return 2;
      }
    }

    const { snapshot } = loaded;
    // The qualified headline: capabilities, exposed, declared gates, runtime policies or "not observed".
    prompter.say([`Found in ${entry}${exportName !== undefined ? ` (export ${exportName})` : ""}:`, `  ${renderHeadline(snapshot)}`]);

    const config = { entry, ...(exportName !== undefined ? { export: exportName } : {}) };
    if (!(await prompter.confirm(`Save ${JSON.stringify(config)} as "orpcAgent" in package.json?`, true))) {
      prompter.say(["Nothing written."]);
      return 0;
    }
    deps.writePackageJson(mergeAgentConfig(deps.readPackageJson(), config));
    const said = ["Saved orpcAgent in package.json."];

    if (await prompter.confirm(`Write the baseline snapshot to ${deps.snapshotLabel}?`, true)) {
      deps.writeSnapshot(snapshotJson(snapshot));
      const script = addCheckScript(deps.readPackageJson(), deps.checkCommand);
      if (script.added) deps.writePackageJson(script.text);
      said.push(`Wrote ${deps.snapshotLabel}.`, script.added ? `Added the "${CHECK_SCRIPT_NAME}" script.` : `Kept the existing "${CHECK_SCRIPT_NAME}" script.`);
    }
    prompter.say([
      ...said,
      "",
      "Next steps:",
      `  Commit package.json and ${deps.snapshotLabel}.`,
      `  In CI run: ${deps.checkCommand}`,
      "  Exit codes: 0 no failing drift · 1 failing drift (update the snapshot in the same change) · 2 could not run.",
      "  After an intended change: orpc-agent snapshot",
    ]);
    return 0;
  } catch (error) {
    if (error instanceof PromptCancelled) {
      prompter.say(["Cancelled."]);
      return 0;
    }
    throw error;
  } finally {
    await prompter.close();
  }
}

async function tryLoad(deps: InitWizardDeps, entry: string, exportName: string | undefined): Promise<LoadedSnapshot | undefined> {
  deps.prompter.say([`Loading ${entry}…`]);
  try {
    return await deps.load(entry, exportName);
  } catch (error) {
    const { message, detail } = error as { message: string; detail?: string };
    deps.prompter.say([`Could not load ${entry}: ${message}`, ...(detail !== undefined ? [detail] : [])]);
    return undefined;
  }
}
