import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildPayload, ChildResult } from "./child-protocol.js";
import { guardProcessGroup, OWN_PROCESS_GROUP } from "./process-group.js";

export type ChildOutcome = {
  /** Exit code, or `null` when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  result: ChildResult | undefined;
  /** What the application printed; used only to explain a child that died without a result. */
  output: string;
};

const OUTPUT_LIMIT = 64 * 1024;

/**
 * Runs the loader child once (docs/architecture/spec/cli.md#cli-5-1): `process.execPath` in `cwd`, ORPC_AGENT_INSPECT=1, stdin
 * ignored, output captured, result through a random temp file the parent always deletes. On POSIX the
 * child leads its own process group, and the whole group is killed on timeout and after exit.
 */
export async function runLoaderChild(options: {
  childScript: string;
  importSpecifier: string | undefined;
  cwd: string;
  payload: Omit<ChildPayload, "resultFile">;
  timeoutMs: number;
}): Promise<ChildOutcome> {
  const resultFile = join(tmpdir(), `orpc-agent-${randomUUID()}.json`);
  const payload: ChildPayload = { ...options.payload, resultFile };
  const args = [
    ...(options.importSpecifier !== undefined ? ["--import", options.importSpecifier] : []),
    options.childScript,
    JSON.stringify(payload),
  ];

  try {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { ...process.env, ORPC_AGENT_INSPECT: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: OWN_PROCESS_GROUP,
    });
    const group = guardProcessGroup(child);
    let output = "";
    const capture = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_LIMIT);
    };
    child.stdout?.on("data", capture);
    child.stderr?.on("data", capture);
    // Listen from the start: the pipes may close before "exit" fires.
    const drained = [child.stdout, child.stderr].map((stream) => closed(stream));

    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      group.kill();
    }, options.timeoutMs);

    try {
      const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
        child.once("error", reject);
        child.once("exit", (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
      });
      // Whatever the application started at import (servers, workers) goes with it, and releases the pipes.
      group.kill();
      await Promise.race([Promise.all(drained), delay(500)]);
      return { code, signal, timedOut, result: readResult(resultFile), output };
    } finally {
      clearTimeout(timer);
      group.kill();
      group.release();
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
  } finally {
    rmSync(resultFile, { force: true });
  }
}

function readResult(file: string): ChildResult | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as ChildResult;
  } catch {
    return undefined;
  }
}

function closed(stream: NodeJS.ReadableStream | null): Promise<void> {
  return new Promise((resolve) => {
    if (stream === null) resolve();
    else stream.once("close", () => resolve());
  });
}

// Drain what is buffered, but never wait long on a pipe some stray process still holds.
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
