import { createRequire } from "node:module";
import { resolve } from "node:path";
import { parseArgs } from "./args/parse-args.js";
import { runAudit } from "./audit/run-audit.js";
import { USAGE } from "./args/usage.js";
import { runCheck } from "./commands/check.js";
import { commandOptions } from "./commands/command-options.js";
import { runInit } from "./commands/init.js";
import { runInspect } from "./commands/inspect.js";
import { couldNotRun, type CliIo } from "./commands/io.js";
import { runSnapshot } from "./commands/snapshot.js";
import { readConfig } from "./config/read-config.js";
import { isMainModule } from "./run-as-main.js";

/**
 * Runs `orpc-agent` with `argv` (without `node` and the script) and returns the exit code (docs/architecture/spec/cli.md#cli-4):
 * 0 clean or success, 1 `check` found failing drift, 2 could not run.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    // `audit verify|export` reads evidence, not the application: its own flags and exit codes (ADR-025).
    if (argv[0] === "audit") return await runAudit(argv.slice(1), io);
    const parsed = parseArgs(argv);
    if (!parsed.ok) {
      io.stderr.write(`orpc-agent: ${parsed.error}\n\n${USAGE}`);
      return 2;
    }
    if (parsed.action === "help") {
      io.stdout.write(USAGE);
      return 0;
    }
    if (parsed.action === "version") {
      io.stdout.write(`${version()}\n`);
      return 0;
    }

    const cwd = resolve(io.cwd, parsed.flags.cwd ?? ".");
    const config = readConfig(cwd);
    if (!config.ok) {
      io.stderr.write(`orpc-agent: ${config.error}\n\n${USAGE}`);
      return 2;
    }
    const options = commandOptions(parsed.flags, config.config, cwd);
    switch (parsed.command) {
      case "inspect":
        return await runInspect(options, io);
      case "snapshot":
        return await runSnapshot(options, io);
      case "check":
        return await runCheck(options, io);
      case "init":
        return await runInit(options, { entryFlag: parsed.flags.entry, config: config.config }, io);
    }
    return 2;
  } catch (error) {
    // Anything unexpected is "could not run", never a silent 0 or a drift-looking 1.
    return couldNotRun(io, `unexpected error: ${error instanceof Error ? error.message : String(error)}`, error instanceof Error ? error.stack : undefined);
  }
}

function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

function version(): string {
  // dist/cli.js and src/cli.ts both sit one level below package.json.
  const manifest = createRequire(import.meta.url)("../package.json") as { version: string };
  return manifest.version;
}

// `node …/dist/cli.js` runs the CLI as bin/orpc-agent.js does; imported (by the launcher or a test), it only exports main.
if (isMainModule(import.meta.url, process.argv[1])) process.exitCode = await main(process.argv.slice(2));
