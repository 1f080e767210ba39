import type { CapabilitySnapshot, EntrySource } from "../snapshot/types.js";
import type { Verbosity } from "../render/verbosity.js";
import type { Prompter } from "../init/prompter.js";
import type { InkModule, ReactModule, UiModules } from "./ui-modules.js";

/** Imports a module by specifier; injectable so tests can make ink "missing". */
export type Importer = (specifier: string) => Promise<unknown>;

export type UiAvailability = { available: true; modules: UiModules } | { available: false; reason: string };

// A computed specifier: bundlers leave it alone, and only this module ever names ink or react.
const importModule: Importer = (specifier) => import(specifier);

/**
 * Loads ink and react through dynamic `import()` (docs/architecture/spec/cli.md#cli-3, ADR-016 §10). Never throws: when either is
 * missing or unusable the UI is reported "unavailable" and callers fall back or explain.
 */
export async function loadUi(importer: Importer = importModule): Promise<UiAvailability> {
  try {
    const [inkModule, reactModule] = await Promise.all([importer("ink"), importer("react")]);
    const ink = inkModule as Partial<InkModule>;
    const namespace = reactModule as Partial<ReactModule> & { default?: ReactModule };
    const react = typeof namespace.createElement === "function" ? (namespace as ReactModule) : namespace.default;
    if (typeof ink.render !== "function" || typeof ink.renderToString !== "function" || typeof react?.createElement !== "function") {
      return { available: false, reason: "ink or react did not load as expected" };
    }
    return { available: true, modules: { ink: ink as InkModule, react } };
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Draws the inventory with Ink; `false` when the UI is unavailable (the caller prints plain instead). */
export async function showInventoryView(
  options: { snapshot: CapabilitySnapshot; entrySource: EntrySource; verbosity: Verbosity; stdout: NodeJS.WritableStream & { columns?: number } },
  importer?: Importer,
): Promise<boolean> {
  const ui = await loadUi(importer);
  if (!ui.available) return false;
  const { inventoryView } = await import("./inventory-view.js");
  const text = ui.modules.ink.renderToString(inventoryView(ui.modules, options.snapshot, options.entrySource, options.verbosity), {
    // A pty may report 0 columns; fall back to a common width.
    columns: options.stdout.columns || 120,
  });
  options.stdout.write(`${text}\n`);
  return true;
}

/** An Ink prompter for `init`, or why there is none. */
export async function inkPrompter(
  streams: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
  importer?: Importer,
): Promise<{ ok: true; prompter: Prompter } | { ok: false; reason: string }> {
  const ui = await loadUi(importer);
  if (!ui.available) return { ok: false, reason: ui.reason };
  const { createInkPrompter } = await import("./ink-prompter.js");
  return { ok: true, prompter: createInkPrompter(ui.modules, streams) };
}
