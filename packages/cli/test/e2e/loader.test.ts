import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type * as Api from "../../src/index.js";
import { BUILT, DIST_INDEX, FIXTURES } from "../helpers/paths.js";
import { waitUntilGone } from "../helpers/processes.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

const json = async (args: string[], env?: Record<string, string>) => {
  const run = await runCli(["inspect", "--json", ...args], { env });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Api.CapabilitySnapshot;
};

describe.skipIf(!BUILT)("loader, on fixture apps (cli.md §5, §10)", { concurrent: true }, () => {
  it("app.ts: the inventory lists capabilities and excluded procedures, byte-identical across runs", async () => {
    const first = await runCli(["inspect", "--json", "--entry", "app.ts"]);
    const second = await runCli(["inspect", "--json", "--entry", "app.ts"]);
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const snapshot = JSON.parse(first.stdout) as Api.CapabilitySnapshot;
    expect(snapshot.capabilities.map((c) => [c.id, c.sideEffect, c.expose, c.approval?.required ?? false])).toEqual([
      ["orders.get", "read", ["aiSdk", "mcp"], false],
      ["orders.refund", "write", ["aiSdk", "direct"], true],
    ]);
    expect(snapshot.excluded).toEqual(["health.ping"]);
    expect(snapshot).not.toHaveProperty("runtime");
    expect(snapshot.capabilities[0]?.inputSchemaHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("factory.js: --export makeApp is refused as a function and never called; auto finds no registry", async () => {
    const sentinel = join(tempDir(), "factory-called");
    const named = await runCli(["inspect", "--entry", "factory.js", "--export", "makeApp"], { env: { FACTORY_SENTINEL: sentinel } });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain("is a function");
    const auto = await runCli(["inspect", "--entry", "factory.js"], { env: { FACTORY_SENTINEL: sentinel } });
    expect(auto.code).toBe(2);
    expect(auto.stderr).toContain("no capability registry");
    expect(existsSync(sentinel)).toBe(false);
  });

  // hangs.js never settles: the run ending at all, with the timeout's own message, is the proof the bound fired (no
  // wall-clock assertion: on a loaded machine starting the child alone can take seconds).
  it("hangs.js: --timeout 1500 ends the run with exit 2 and 'timed out', and no process of the group is left", async () => {
    const pidFile = join(tempDir(), "pids.json");
    const run = await runCli(["inspect", "--entry", "hangs.js", "--timeout", "1500"], { env: { HANGS_PID_FILE: pidFile } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("timed out after 1500ms");
    expect(run.stderr).toContain("ORPC_AGENT_INSPECT");
    const pids = JSON.parse(readFileSync(pidFile, "utf8")) as { child: number; grandchild: number };
    expect(await waitUntilGone([pids.child, pids.grandchild], 3_000)).toBe(true);
  });

  it("guarded.js: the child runs with ORPC_AGENT_INSPECT=1", async () => {
    const snapshot = await json(["--entry", "guarded.js"]);
    expect(snapshot.capabilities[0]?.description).toBe("Status (loaded under orpc-agent).");
  });

  it("ambiguous.js: refuses listing both registries; --export resolves", async () => {
    const run = await runCli(["inspect", "--entry", "ambiguous.js"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("billing (registry)");
    expect(run.stderr).toContain("support (registry)");
    expect(run.stderr).toContain("--export");
    expect((await json(["--entry", "ambiguous.js", "--export", "support"])).capabilities.map((c) => c.id)).toEqual(["tickets.list"]);
  });

  it("layered.js: the governance wins; --export runtime reads the runtime; --export registry prints the hint on stderr", async () => {
    expect((await json(["--entry", "layered.js"])).runtime?.policies.map((p) => p.name)).toEqual(["owner-only"]);
    expect((await json(["--entry", "layered.js", "--export", "runtime"])).runtime?.policies.map((p) => p.name)).toEqual(["owner-only"]);
    const bare = await runCli(["inspect", "--json", "--entry", "layered.js", "--export", "registry"]);
    expect(bare.code).toBe(0);
    expect(JSON.parse(bare.stdout)).not.toHaveProperty("runtime");
    expect(bare.stderr).toContain("runtime policies are not recorded this way");
    expect(bare.stderr).toContain("--export governance");
  });

  it("scoped.ts: v3 scope and candidates copied from the manifest", async () => {
    const snapshot = await json(["--entry", "scoped.ts"]);
    expect(snapshot.runtime?.policies).toEqual([
      { name: "tenant-guard", phases: ["discovery", "invocation"], candidates: ["accounts.close", "accounts.lookup", "payments.send"] },
      { name: "close-limit", phases: ["invocation"], scope: { capabilities: { ids: ["accounts.close"] } }, candidates: ["accounts.close"] },
      { name: "finance-hours", phases: ["execution"], scope: { capabilities: { tags: ["finance"] } }, candidates: ["payments.send"] },
      {
        name: "gate-model-writes",
        phases: ["invocation"],
        scope: { capabilities: { sideEffects: ["write", "destructive", "external"] }, surfaces: ["aiSdk", "mcp"] },
        candidates: ["accounts.close"],
      },
      { name: "paused", phases: ["invocation"], scope: { capabilities: { ids: [] } }, candidates: [] },
    ]);
  });

  it("scoped.ts: the plain inventory shows runtime: cells, selectors, phases and candidate counts", async () => {
    const run = await runCli(["inspect", "--entry", "scoped.ts"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("3 capabilities · 3 exposed · declared gates: 1 approval · 5 runtime policies");
    expect(run.stdout).toMatch(/accounts\.close .* runtime:tenant-guard, runtime:close-limit, runtime:gate-model-writes\n/);
    expect(run.stdout).toMatch(/payments\.send .* runtime:tenant-guard, runtime:finance-hours\n/);
    expect(run.stdout).toMatch(/  gate-model-writes  invocation +sideEffects=write\|destructive\|external & surfaces=aiSdk\|mcp  1 candidate\n/);
    expect(run.stdout).toMatch(/  paused +invocation +ids=\(none\) +0 candidates\n/);
    expect(run.stdout).toMatch(/  tenant-guard +discovery,invocation +all +3 candidates\n/);
  });

  it("throws.js: exits 2 with 'could not import' and the stack", async () => {
    const run = await runCli(["inspect", "--entry", "throws.js"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("could not import throws.js");
    expect(run.stderr).toContain("DATABASE_URL is not set");
    expect(run.stderr).toMatch(/\n\s+at .*throws\.js/);
  });

  it("custom-vendor.js: the app's own converter is used (same core instance), so the hash is sha256:", async () => {
    const snapshot = await json(["--entry", "custom-vendor.js"]);
    expect(snapshot.capabilities[0]?.inputSchemaHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("needs-transform.ts: a TypeScript enum loads natively or through the project's loader", async () => {
    expect((await json(["--entry", "needs-transform.ts"])).capabilities.map((c) => [c.id, c.risk])).toEqual([["lights.status", "low"]]);
  });

  it("a TypeScript entry with no loader in the project: 2 with remedies (or loads natively)", async () => {
    const run = await runCli(["inspect", "--entry", join(FIXTURES, "app.ts")], { cwd: tempDir() });
    if (typeof (process.features as { typescript?: unknown }).typescript === "string") {
      expect(run.code).toBe(0);
    } else {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("cannot load the TypeScript entry");
      expect(run.stderr).toContain("--import");
    }
  });

  it("--import replaces detection", async () => {
    const tsx = pathToFileURL(join(FIXTURES, "../../node_modules/tsx/dist/loader.mjs")).href;
    const run = await runCli(["inspect", "--json", "--entry", join(FIXTURES, "app.ts"), "--import", tsx], { cwd: tempDir() });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).capabilities).toHaveLength(2);
  });

  it("exits.js: a child that dies without a result is reported with its captured output", async () => {
    const run = await runCli(["inspect", "--entry", "exits.js"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the loader child for exits.js exited with code 3 without a result");
    expect(run.stderr).toContain("exits.js: shutting down before anything is exported");
  });

  it("a missing entry file exits 2", async () => {
    const run = await runCli(["inspect", "--entry", "nope.ts"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("entry nope.ts was not found");
  });

  it("loadSnapshot (programmatic): resolves with source and loader, rejects with LoadError { message, detail }", async () => {
    const api = (await import(DIST_INDEX)) as typeof Api;
    const loaded = await api.loadSnapshot({ entry: "runtime-gated.ts", cwd: FIXTURES });
    expect(loaded.entrySource).toBe("runtime");
    expect(loaded.usedImport).toMatch(/^file:.*tsx/);
    expect(loaded.snapshot.runtime?.policies.map((p) => p.name)).toEqual(["tenant-guard", "spend-limit"]);
    const failure = await api.loadSnapshot({ entry: "throws.js", cwd: FIXTURES }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(api.LoadError);
    expect(failure).toMatchObject({ message: "could not import throws.js" });
    expect((failure as Api.LoadError).detail).toContain("DATABASE_URL");
  });

  it("leaves no result file behind in the temp directory", async () => {
    const dir = tempDir();
    await runCli(["inspect", "--json", "--entry", "noisy.js"], { env: { TMPDIR: dir } });
    await runCli(["inspect", "--entry", "throws.js"], { env: { TMPDIR: dir } });
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(dir).filter((name) => name.startsWith("orpc-agent-"))).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });
});
