import { copyFileSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, BUILT, CLI_DIR } from "../helpers/paths.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

describe.skipIf(!BUILT)("usage end to end (cli.md §4)", () => {
  it.each([
    [[], "no command given"],
    [["deploy"], 'unknown command "deploy"'],
    [["check", "--frobnicate"], 'unknown option "--frobnicate"'],
    [["check", "--entry"], "--entry needs a value"],
    [["check", "--fail-on", "narrowing"], "--fail-on must be one of"],
    [["check", "inspect"], "exactly one command"],
    [["inspect", "--timeout", "-5"], "--timeout needs a value"],
    [["inspect", "--format", "json"], "for inspect use --json"],
  ])("usage error %j exits 2 with the message and usage on stderr", async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("Usage: orpc-agent <command>");
    expect(run.stdout).toBe("");
  });

  it("--help and --version print to stdout and exit 0", async () => {
    const help = await runCli(["--help"]);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toContain("Usage: orpc-agent <command>");
    const version = await runCli(["-v"]);
    const manifest = JSON.parse(readFileSync(join(CLI_DIR, "package.json"), "utf8")) as { version: string };
    expect(version).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
  });

  it("node dist/cli.js runs the CLI, also through a symlink (as node_modules/.bin has it), and prints its output once", () => {
    const manifest = JSON.parse(readFileSync(join(CLI_DIR, "package.json"), "utf8")) as { version: string };
    const cli = join(CLI_DIR, "dist", "cli.js");
    const link = join(tempDir(), "orpc-agent");
    symlinkSync(cli, link);
    for (const script of [cli, link]) {
      const run = spawnSync(process.execPath, [script, "--version"], { encoding: "utf8" });
      expect(run).toMatchObject({ status: 0, stdout: `${manifest.version}\n`, stderr: "" });
    }
    const usage = spawnSync(process.execPath, [cli, "deploy"], { encoding: "utf8" });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('unknown command "deploy"');
  });

  it("the launcher without a build prints a hint and exits 2", () => {
    const unbuilt = tempDir();
    mkdirSync(join(unbuilt, "bin"));
    copyFileSync(BIN, join(unbuilt, "bin", "orpc-agent.js"));
    const run = spawnSync(process.execPath, [join(unbuilt, "bin", "orpc-agent.js"), "check"], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("build output is missing");
  });
});
