import { describe, expect, it } from "vitest";
import { inkPrompter, loadUi, showInventoryView } from "../../src/ui/bridge.js";
import { inventoryView } from "../../src/ui/inventory-view.js";
import { entry, snapshot } from "../helpers/snapshots.js";

const sample = snapshot([entry("orders.refund", { approval: { required: true } })], { excluded: ["health.ping"] });

describe("UI bridge (cli.md §3)", () => {
  it('reports "unavailable" when its injected importer rejects', async () => {
    const missing = async (specifier: string) => {
      throw new Error(`Cannot find package '${specifier}'`);
    };
    expect(await loadUi(missing)).toEqual({ available: false, reason: "Cannot find package 'ink'" });
    const writes: string[] = [];
    const stdout = { write: (text: string) => writes.push(text) } as unknown as NodeJS.WritableStream;
    expect(await showInventoryView({ snapshot: sample, entrySource: "registry", verbosity: "normal", stdout }, missing)).toBe(false);
    expect(writes).toEqual([]);
    expect(await inkPrompter({ stdin: process.stdin, stdout }, missing)).toEqual({ ok: false, reason: "Cannot find package 'ink'" });
  });

  it("reports unavailable when the modules do not look like ink and react", async () => {
    expect(await loadUi(async () => ({}))).toMatchObject({ available: false });
  });

  it("loads the installed ink and react, and the Ink view shows the same facts with the runtime state as a panel", async () => {
    const ui = await loadUi();
    expect(ui.available).toBe(true);
    if (!ui.available) return;
    const text = ui.modules.ink.renderToString(inventoryView(ui.modules, sample, "registry", "normal"), { columns: 160 });
    expect(text).toContain("1 capability · 1 exposed · declared gates: 1 approval · runtime policies not observed · 1 excluded");
    expect(text).toContain("orders.refund");
    expect(text).toContain("Runtime policies — NOT OBSERVED");
    expect(text).toMatch(/[╭╮╰╯│─]/);
    expect(ui.modules.ink.renderToString(inventoryView(ui.modules, sample, "registry", "min"))).not.toContain("orders.refund");
  });
});
