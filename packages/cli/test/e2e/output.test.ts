import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT } from "../helpers/paths.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

const BOX_DRAWING = /[\u2500-\u257f]/;

describe.skipIf(!BUILT)("output end to end (cli.md §8, §10)", { concurrent: true }, () => {
  it("piped inspect is exactly the --plain output, with no box-drawing characters and no colour", async () => {
    const piped = await runCli(["inspect", "--entry", "scoped.ts"]);
    const plain = await runCli(["inspect", "--entry", "scoped.ts", "--plain"]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(plain.stdout);
    expect(piped.stdout).not.toMatch(BOX_DRAWING);
    expect(piped.stdout).not.toMatch(/\u001b/);
    expect(piped.stdout).toContain("Runtime policies\n");
  });

  it("--detail is the same as --verbosity detail, and min prints the headline only", async () => {
    const detail = await runCli(["inspect", "--entry", "app.ts", "--detail"]);
    const verbosity = await runCli(["inspect", "--entry", "app.ts", "--verbosity", "detail"]);
    expect(detail.stdout).toBe(verbosity.stdout);
    expect(detail.stdout).toContain("  #finance · #orders · tools aiSdk=orders_refund · approval type finance\n");
    const min = await runCli(["inspect", "--entry", "app.ts", "--verbosity", "min"]);
    expect(min.stdout).toBe("2 capabilities · 2 exposed · declared gates: 1 approval · runtime policies not observed · 1 excluded\n");
  });

  it("inspect --json is byte-identical to snapshot -o - and to the written file", async () => {
    const json = await runCli(["inspect", "--json", "--entry", "scoped.ts"]);
    const stdout = await runCli(["snapshot", "--entry", "scoped.ts", "-o", "-"]);
    const file = join(tempDir(), "s.json");
    await runCli(["snapshot", "--entry", "scoped.ts", "--out", file]);
    expect(json.stdout).toBe(stdout.stdout);
    expect(readFileSync(file, "utf8")).toBe(json.stdout);
    expect(stdout.stderr).toBe("");
  });

  it("noisy.js: printing at import does not corrupt --json, -o - or check --format json", async () => {
    const json = await runCli(["inspect", "--json", "--entry", "noisy.js"]);
    expect(JSON.parse(json.stdout).capabilities[0].id).toBe("echo");
    const stdout = await runCli(["snapshot", "--entry", "noisy.js", "-o", "-"]);
    expect(stdout.stdout).toBe(json.stdout);
    const baseline = join(tempDir(), "noisy.json");
    await runCli(["snapshot", "--entry", "noisy.js", "-o", baseline]);
    const check = await runCli(["check", "--entry", "noisy.js", "--snapshot", baseline, "--format", "json"]);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout).changes).toEqual([]);
    expect(`${json.stdout}${check.stdout}${json.stderr}`).not.toContain("noisy.js:");
  });

  it("--no-descriptions omits descriptions", async () => {
    const run = await runCli(["inspect", "--json", "--no-descriptions", "--entry", "app.ts"]);
    expect(run.stdout).not.toContain('"description"');
  });
});
