import { describe, expect, it } from "vitest";
import { runInitWizard, type InitWizardDeps } from "../../src/init/run-init-wizard.js";
import { PromptCancelled, type Prompter } from "../../src/init/prompter.js";
import { LoadError } from "../../src/load/load-error.js";
import type { LoadedSnapshot } from "../../src/load/load-snapshot.js";
import { entry, snapshot } from "../helpers/snapshots.js";

type Answer = { select?: number; confirm?: boolean; cancel?: true };

/** A prompter answering from a script, recording what was asked and said. */
function scripted(answers: Answer[]) {
  const asked: string[] = [];
  const said: string[] = [];
  let closed = false;
  const next = () => {
    const answer = answers.shift();
    if (answer === undefined) throw new Error("unexpected question");
    if (answer.cancel) throw new PromptCancelled();
    return answer;
  };
  const prompter: Prompter = {
    async select(question, options) {
      asked.push(`${question} [${options.map((o) => o.label).join(" | ")}]`);
      return (options[next().select ?? 0] as (typeof options)[number]).value;
    },
    async confirm(question) {
      asked.push(question);
      return next().confirm ?? true;
    },
    say: (lines) => said.push(...lines),
    close: async () => {
      closed = true;
    },
  };
  return { prompter, asked, said, isClosed: () => closed };
}

function setup(answers: Answer[], options: { loaded?: Partial<LoadedSnapshot>; packageJson?: string; fail?: boolean } = {}) {
  const script = scripted(answers);
  const files: { packageJson: string | undefined; snapshot: string | undefined } = { packageJson: options.packageJson, snapshot: undefined };
  const loads: [string, string | undefined][] = [];
  const deps: InitWizardDeps = {
    candidates: ["src/app.ts", "src/agent.ts"],
    exportName: undefined,
    snapshotLabel: "capabilities.snapshot.json",
    checkCommand: "orpc-agent check",
    load: async (entryPath, exportName) => {
      loads.push([entryPath, exportName]);
      if (options.fail) throw new LoadError("could not import src/app.ts", "Error: boom");
      const governed = exportName === "governance";
      return {
        snapshot: snapshot([entry("a", { approval: { required: true } })], governed ? { runtime: { policies: [] } } : {}),
        entrySource: governed ? "governance" : "registry",
        usedImport: undefined,
        ...(governed ? {} : options.loaded),
      };
    },
    readPackageJson: () => files.packageJson,
    writePackageJson: (text) => (files.packageJson = text),
    writeSnapshot: (text) => (files.snapshot = text),
    prompter: script.prompter,
  };
  return { deps, files, loads, ...script };
}

describe("runInitWizard (cli.md §8.5)", () => {
  it("recommends the first candidate, shows findings, writes config, baseline and script on confirmation", async () => {
    const run = setup([{ select: 0 }, { confirm: true }, { confirm: true }], { packageJson: '{"name":"app"}' });
    expect(await runInitWizard(run.deps)).toBe(0);
    expect(run.asked[0]).toContain("[src/app.ts (recommended) | src/agent.ts]");
    expect(run.loads).toEqual([["src/app.ts", undefined]]);
    expect(run.said).toContain("  1 capability · 1 exposed · declared gates: 1 approval · runtime policies not observed");
    expect(JSON.parse(run.files.packageJson ?? "")).toEqual({
      name: "app",
      orpcAgent: { entry: "src/app.ts" },
      scripts: { "check:capabilities": "orpc-agent check" },
    });
    expect(JSON.parse(run.files.snapshot ?? "").version).toBe(3);
    expect(run.isClosed()).toBe(true);
  });

  it("declining writes nothing and exits 0", async () => {
    const run = setup([{ select: 1 }, { confirm: false }], { packageJson: '{"name":"app"}' });
    expect(await runInitWizard(run.deps)).toBe(0);
    expect(run.files).toEqual({ packageJson: '{"name":"app"}', snapshot: undefined });
    expect(run.loads).toEqual([["src/agent.ts", undefined]]);
  });

  it("offers the governed export when the registry has one, and reloads with it", async () => {
    const run = setup([{ select: 0 }, { select: 0 }, { confirm: true }, { confirm: false }], { loaded: { runtimeAvailableAs: "governance" } });
    expect(await runInitWizard(run.deps)).toBe(0);
    expect(run.asked[1]).toContain("Use --export governance (recommended)");
    expect(run.loads).toEqual([["src/app.ts", undefined], ["src/app.ts", "governance"]]);
    expect(JSON.parse(run.files.packageJson ?? "").orpcAgent).toEqual({ entry: "src/app.ts", export: "governance" });
    expect(run.files.snapshot).toBeUndefined();
  });

  it("a load failure is shown and exits 2 without writing", async () => {
    const run = setup([{ select: 0 }], { fail: true });
    expect(await runInitWizard(run.deps)).toBe(2);
    expect(run.said.join("\n")).toContain("could not import src/app.ts");
    expect(run.files).toEqual({ packageJson: undefined, snapshot: undefined });
  });

  it("keeps an existing check:capabilities script", async () => {
    const packageJson = JSON.stringify({ scripts: { "check:capabilities": "custom" } });
    const run = setup([{ select: 0 }, { confirm: true }, { confirm: true }], { packageJson });
    await runInitWizard(run.deps);
    expect(JSON.parse(run.files.packageJson ?? "").scripts).toEqual({ "check:capabilities": "custom" });
  });

  it("a cancelled prompt writes nothing more and still closes the prompter", async () => {
    const run = setup([{ cancel: true }]);
    expect(await runInitWizard(run.deps)).toBe(0);
    expect(run.loads).toEqual([]);
    expect(run.isClosed()).toBe(true);
  });
});
