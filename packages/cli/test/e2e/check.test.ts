import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { CapabilitySnapshot } from "../../src/snapshot/types.js";
import { BUILT, FIXTURES } from "../helpers/paths.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

let dir: string;
let appBaseline: CapabilitySnapshot;

/** Writes a baseline derived from app.ts's snapshot and returns its path. */
function baseline(name: string, edit: (snapshot: CapabilitySnapshot) => unknown = () => undefined): string {
  const copy = structuredClone(appBaseline);
  edit(copy);
  const path = join(dir, name);
  writeFileSync(path, `${JSON.stringify(copy, null, 2)}\n`);
  return path;
}

// Baseline without mcp on orders.get: the current app exposes it there, so check sees widening.
const narrowerBaseline = (snapshot: CapabilitySnapshot) => {
  const get = snapshot.capabilities.find((c) => c.id === "orders.get")!;
  get.expose = ["aiSdk"];
  get.toolNames = { aiSdk: "orders_get" };
};

// Baseline where orders.refund had a lower risk: the current app raised it, which is narrowing only.
const lowerRiskBaseline = (snapshot: CapabilitySnapshot) => {
  snapshot.capabilities.find((c) => c.id === "orders.refund")!.risk = "medium";
};

describe.skipIf(!BUILT)("check end to end (cli.md §4, §7, §10)", { concurrent: true }, () => {
  beforeAll(async () => {
    dir = tempDir();
    const written = await runCli(["snapshot", "--entry", "app.ts", "--snapshot", join(dir, "app.json")]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toBe(`wrote ${join(dir, "app.json")} (2 capabilities)\n`);
    appBaseline = JSON.parse(readFileSync(join(dir, "app.json"), "utf8")) as CapabilitySnapshot;
  });

  it("round trip: check against a fresh snapshot exits 0 printing exactly 'No capability drift.'", async () => {
    const run = await runCli(["check", "--entry", "app.ts", "--snapshot", join(dir, "app.json")]);
    expect(run).toMatchObject({ code: 0, stdout: "No capability drift.\n", stderr: "" });
  });

  it("widening exits 1, and plain output asks to update the snapshot in this change", async () => {
    const run = await runCli(["check", "--entry", "app.ts", "--snapshot", baseline("narrow.json", narrowerBaseline)]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Capability drift — 1 change, 1 widening");
    expect(run.stdout).toMatch(/WIDENING[^\n]*\n {2}orders\.get {2}expose {2}now exposed on mcp\n/);
    expect(run.stderr).toContain("Update the snapshot in this change: orpc-agent snapshot --entry app.ts");
  });

  it("narrowing only exits 0 under --fail-on widening, 1 under the default any", async () => {
    const path = baseline("lower-risk.json", lowerRiskBaseline);
    const widening = await runCli(["check", "--entry", "app.ts", "--snapshot", path, "--fail-on", "widening"]);
    expect(widening.code).toBe(0);
    expect(widening.stdout).toContain("NARROWING");
    const any = await runCli(["check", "--entry", "app.ts", "--snapshot", path]);
    expect(any.code).toBe(1);
  });

  it("--format github prints annotations", async () => {
    const run = await runCli(["check", "--entry", "app.ts", "--snapshot", baseline("narrow-gh.json", narrowerBaseline), "--format", "github"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("::error title=widening: orders.get (expose)::orders.get — now exposed on mcp\n");
    expect(run.stderr).not.toContain("Update the snapshot");
  });

  it("--format md prints the markdown table", async () => {
    const run = await runCli(["check", "--entry", "app.ts", "--snapshot", baseline("narrow-md.json", narrowerBaseline), "--format", "markdown"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("| 🔴 widening | orders.get | expose | now exposed on mcp |");
  });

  it("--format json parses, lists the same changes and keeps the exit codes 0, 1 and 2", async () => {
    const clean = await runCli(["check", "--entry", "app.ts", "--snapshot", join(dir, "app.json"), "--format", "json"]);
    expect(clean.code).toBe(0);
    expect(JSON.parse(clean.stdout)).toEqual({ failOn: "any", counts: { widening: 0, narrowing: 0, neutral: 0 }, changes: [] });

    const drift = await runCli(["check", "--entry", "app.ts", "--snapshot", baseline("narrow-json.json", narrowerBaseline), "--format", "json", "--fail-on", "widening"]);
    expect(drift.code).toBe(1);
    expect(JSON.parse(drift.stdout)).toEqual({
      failOn: "widening",
      counts: { widening: 1, narrowing: 0, neutral: 0 },
      changes: [{ kind: "widening", id: "orders.get", field: "expose", message: "now exposed on mcp" }],
    });

    const missing = await runCli(["check", "--entry", "app.ts", "--snapshot", join(dir, "absent.json"), "--format", "json"]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe("");
  });

  it("a missing snapshot exits 2 with 'was not found' and the command to run", async () => {
    const run = await runCli(["check", "--entry", "app.ts", "--snapshot", join(dir, "absent.json")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("absent.json was not found");
    expect(run.stderr).toContain("orpc-agent snapshot --entry app.ts");
  });

  it("an unsupported version or a malformed file exits 2", async () => {
    const v4 = baseline("v4.json", (s) => ((s as { version: number }).version = 4));
    const run = await runCli(["check", "--entry", "app.ts", "--snapshot", v4]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not a capability snapshot this version can read (got version 4, expected 1, 2 or 3)");
    writeFileSync(join(dir, "broken.json"), "{ oops");
    expect((await runCli(["check", "--entry", "app.ts", "--snapshot", join(dir, "broken.json")])).code).toBe(2);
  });

  it("a loading command without an entry exits 2 naming --entry and orpcAgent.entry", async () => {
    const run = await runCli(["check"], { cwd: tempDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--entry");
    expect(run.stderr).toContain("orpcAgent.entry");
  });

  it("removing a runtime policy is widening: exit 1 under --fail-on widening, capability entries unchanged", async () => {
    const gated = join(dir, "gated.json");
    expect((await runCli(["snapshot", "--entry", "runtime-gated.ts", "-o", gated])).code).toBe(0);
    const ungated = await runCli(["snapshot", "--entry", "runtime-ungated.ts", "-o", "-"]);
    const before = JSON.parse(readFileSync(gated, "utf8")) as CapabilitySnapshot;
    const after = JSON.parse(ungated.stdout) as CapabilitySnapshot;
    expect(JSON.stringify(after.capabilities)).toBe(JSON.stringify(before.capabilities));

    const run = await runCli(["check", "--entry", "runtime-ungated.ts", "--snapshot", gated, "--fail-on", "widening"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("runtime policy removed: spend-limit");
  });

  it("a v1 baseline: 0 under --fail-on widening with the notice, 1 under any with 'now observed'", async () => {
    const current = await runCli(["snapshot", "--entry", "runtime-gated.ts", "-o", "-"]);
    const v1 = JSON.parse(current.stdout) as Record<string, unknown> & CapabilitySnapshot;
    delete v1.runtime;
    v1.version = 1;
    for (const capability of v1.capabilities) delete (capability as Partial<typeof capability>).discovery;
    const path = join(dir, "v1.json");
    writeFileSync(path, JSON.stringify(v1));

    const widening = await runCli(["check", "--entry", "runtime-gated.ts", "--snapshot", path, "--fail-on", "widening"]);
    expect(widening.code).toBe(0);
    expect(widening.stderr).toContain(
      `orpc-agent: ${path} predates runtime-policy recording; 2 runtime policies are configured and NOT covered by this gate yet. Run: orpc-agent snapshot --entry runtime-gated.ts`,
    );
    const any = await runCli(["check", "--entry", "runtime-gated.ts", "--snapshot", path]);
    expect(any.code).toBe(1);
    expect(any.stdout).toContain("now observed");
  });

  it("a v2 baseline against scoped.ts prints the scope notice", async () => {
    const current = JSON.parse((await runCli(["snapshot", "--entry", "scoped.ts", "-o", "-"])).stdout) as CapabilitySnapshot;
    const v2 = { ...current, version: 2, runtime: { policies: current.runtime!.policies.map(({ name, phases }) => ({ name, phases })) } };
    const path = join(dir, "v2.json");
    writeFileSync(path, JSON.stringify(v2));
    const run = await runCli(["check", "--entry", "scoped.ts", "--snapshot", path, "--fail-on", "widening"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("predates runtime-policy scope recording; 5 runtime policies are configured and NOT covered by this gate yet");
  });

  it("reads entry and snapshot from orpcAgent in the package.json of --cwd", async () => {
    const app = tempDir();
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", orpcAgent: { entry: join(FIXTURES, "noisy.js"), snapshot: "caps/snapshot.json" } }));
    const written = await runCli(["snapshot", "--cwd", app], { cwd: FIXTURES });
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toBe("wrote caps/snapshot.json (1 capability)\n");
    const checked = await runCli(["check", "--cwd", app]);
    expect(checked).toMatchObject({ code: 0, stdout: "No capability drift.\n" });
  });

  it("a non-string config value is a usage error", async () => {
    const app = tempDir();
    writeFileSync(join(app, "package.json"), JSON.stringify({ orpcAgent: { entry: ["a.ts"] } }));
    const run = await runCli(["check"], { cwd: app });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("orpcAgent.entry must be a string");
  });

  it("--verbosity detail adds the inventory at detail after the drift report; min prints counts", async () => {
    const path = baseline("narrow-detail.json", narrowerBaseline);
    const detail = await runCli(["check", "--entry", "app.ts", "--snapshot", path, "--verbosity", "detail"]);
    expect(detail.stdout).toMatch(/now exposed on mcp\n\n2 capabilities · /);
    expect(detail.stdout).toContain("  Refund an order.");
    const min = await runCli(["check", "--entry", "app.ts", "--snapshot", path, "--verbosity", "min"]);
    expect(min.stdout).toBe("Capability drift — 1 change, 1 widening\nwidening 1\n");
  });
});
