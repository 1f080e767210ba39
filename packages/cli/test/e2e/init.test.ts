import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT, FIXTURES } from "../helpers/paths.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

describe.skipIf(!BUILT)("init end to end (cli.md §8.5)", () => {
  it("without a TTY: exits 2 with 'needs an interactive terminal' and the config to set by hand, writing nothing", async () => {
    const app = tempDir();
    const manifest = JSON.stringify({ name: "app" });
    writeFileSync(join(app, "package.json"), manifest);
    const run = await runCli(["init", "--entry", join(FIXTURES, "app.ts")], { cwd: app });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("needs an interactive terminal");
    expect(run.stderr).toContain('"orpcAgent"');
    expect(readFileSync(join(app, "package.json"), "utf8")).toBe(manifest);
  });

  it("no entry candidate: exits 2", async () => {
    const run = await runCli(["init"], { cwd: tempDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no entry candidate");
  });
});
