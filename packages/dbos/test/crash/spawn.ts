// Worker processes: real `node` running TypeScript sources through the `@orpc-agent/source` condition,
// synchronized on the lines they print, never on sleeps.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type Worker = {
  readonly pid: number;
  /** The first line, printed before or after the call, that matches `pattern`; rejects if the process ends first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Signals this process only, by its id, and waits for it to end. */
  kill(signal: NodeJS.Signals): Promise<Exit>;
};

export function startWorker(args: string[], env: Record<string, string>): Worker {
  const script = fileURLToPath(new URL("./worker.ts", import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ["--conditions=@orpc-agent/source", "--import", "tsx", script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line);
    for (const listener of listeners) listener(line);
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
  let ended = false;
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => {
      ended = true;
      resolve({ code, signal });
    }),
  );

  const waitFor = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      for (const line of lines) {
        const seen = line.match(pattern);
        if (seen) return resolve(seen);
      }
      const stop = () => {
        listeners.delete(listener);
        clearTimeout(timer);
      };
      const listener = (line: string) => {
        const match = line.match(pattern);
        if (match === null) return;
        stop();
        resolve(match);
      };
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`worker printed no line matching ${pattern} within ${timeoutMs} ms; output:\n${lines.join("\n")}\nstderr:\n${stderr}`));
      }, timeoutMs);
      listeners.add(listener);
      void exited.then(({ code, signal }) => {
        if (!listeners.has(listener)) return;
        stop();
        reject(new Error(`worker exited (${code ?? signal}) before printing ${pattern}; stderr:\n${stderr}`));
      });
    });

  return {
    pid: child.pid!,
    waitFor,
    async kill(signal) {
      if (!ended) child.kill(signal);
      return exited;
    },
  };
}
