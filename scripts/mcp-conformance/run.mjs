#!/usr/bin/env node
// `pnpm test:mcp-conformance` (issue 46, item 6): the MCP project's own conformance suite
// (@modelcontextprotocol/conformance, every server scenario, pending ones included) against a governed server.
// Starts server.ts on loopback on this Node, runs the suite's CLI on a Node >= 22 (this one when it is new
// enough, else one installed outside the workspace by packages/ai-sdk/scripts/install-node22.sh, so it also runs
// from a Node 20 shell), and exits as the suite does with baseline.yml as its expected failures: 1 on a failure
// the baseline does not list, and 1 on a baseline entry that now passes (a stale entry).
//
//   node scripts/mcp-conformance/run.mjs [--scenario <name>]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const HERE = path.join(ROOT, "scripts/mcp-conformance");
const CLI = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const STARTUP_LIMIT_MS = 60_000;

const node22 = execFileSync("sh", [path.join(ROOT, "packages/ai-sdk/scripts/install-node22.sh")], {
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
}).trim();

const server = spawn(process.execPath, ["--conditions=@orpc-agent/source", "--import", "tsx", path.join(HERE, "server.ts")], {
  cwd: ROOT,
  stdio: ["ignore", "pipe", "inherit"],
});
const stopServer = () => {
  if (server.exitCode === null && server.signalCode === null) server.kill("SIGTERM");
};
process.on("exit", stopServer);

const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`the fixture server printed no URL within ${STARTUP_LIMIT_MS} ms`)), STARTUP_LIMIT_MS);
  server.once("exit", (code, signal) => reject(new Error(`the fixture server exited before listening (code ${code}, signal ${signal})`)));
  createInterface({ input: server.stdout }).on("line", (line) => {
    const match = /^listening (\S+)$/.exec(line);
    if (match === null) return void process.stdout.write(`[fixture] ${line}\n`);
    clearTimeout(timer);
    resolve(match[1]);
  });
}).catch((error) => {
  console.error(`test:mcp-conformance: ${error.message}`);
  process.exit(1);
});

const results = mkdtempSync(path.join(tmpdir(), "mcp-conformance-"));
const args = [CLI, "server", "--url", url, "--expected-failures", path.join(HERE, "baseline.yml"), "--output-dir", results];
const scenario = process.argv.indexOf("--scenario");
args.push(...(scenario === -1 ? ["--suite", "all"] : ["--scenario", process.argv[scenario + 1]]));
console.log(`test:mcp-conformance: fixture at ${url}, suite on ${node22}, checks under ${results}`);

const suite = spawn(node22, args, { cwd: ROOT, stdio: "inherit" });
const code = await new Promise((resolve) => suite.once("exit", (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 1))));
stopServer();
process.exit(code);
