import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, FIXTURES } from "./paths.js";

export type CliRun = { code: number | null; stdout: string; stderr: string; ms: number };

/** Runs the built binary as a child process, stdin ignored and stdout piped (so: never a TTY). */
export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<CliRun> {
  const started = performance.now();
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? FIXTURES,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "orpc-agent-cli-test-"));
}
