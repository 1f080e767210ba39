// The example's own commands as child processes on a Node that runs Mastra (see modern-node.ts).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { modernNode } from "./modern-node.js";

const run = promisify(execFile);
export const exampleDir = fileURLToPath(new URL("../..", import.meta.url));
// As package.json's scripts: one `ai` for the example and the workspace packages (src/one-ai.mjs), then tsx.
const TSX = ["--conditions=@orpc-agent/source", "--import", "./src/one-ai.mjs", "--import", "tsx"];

/** `vite build` of the page into `outDir`. */
export async function buildClient(node: string, outDir: string): Promise<void> {
  const vite = fileURLToPath(new URL("../../node_modules/vite/bin/vite.js", import.meta.url));
  await run(node, [vite, "build"], { cwd: exampleDir, env: { ...process.env, CLIENT_OUT_DIR: outDir } });
}

/** `pnpm demo`, to completion: its exit code and output. */
export async function runDemo(dataDir: string): Promise<{ stdout: string; stderr: string }> {
  return run(modernNode(), [...TSX, "src/demo/main.ts"], { cwd: exampleDir, env: { ...process.env, DATA_DIR: dataDir } });
}

/** `src/server/main.ts` on a free port; resolves with its base URL once it printed it. */
export function startServer(node: string, env: { DATA_DIR: string; CLIENT_DIR: string }): Promise<{ base: string; child: ChildProcess; output: () => string }> {
  const child = spawn(node, [...TSX, "src/server/main.ts"], { cwd: exampleDir, env: { ...process.env, ...env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (match) resolve({ base: `http://127.0.0.1:${match[1]}`, child, output: () => output });
    });
    child.on("exit", (code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
  });
}

/** SIGTERM, then the exit: the server closes its database first. */
export function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
