// Child processes for the cross-process tests: real `node` processes running TypeScript sources through the
// `@orpc-agent/source` condition, synchronized on the lines they print (no sleeps).
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

export type Worker = {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with the first printed line (past or future) matching `pattern`; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code or signal once the process ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` to this process only, by its id, and waits for it to end. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
};

export function startWorker(file: string, o: { env?: Record<string, string | undefined>; args?: string[] } = {}): Worker {
  const script = fileURLToPath(new URL(file, import.meta.url));
  const child = spawn(process.execPath, ["--conditions=@orpc-agent/source", "--import", "tsx", script, ...(o.args ?? [])], {
    cwd: repoRoot,
    env: { ...process.env, ...o.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line);
    for (const listener of listeners) listener(line);
  });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => void (errors += chunk.toString()));
  let ended = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      ended = true;
      resolve({ code, signal });
    }),
  );

  const waitFor = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const seen = lines.map((line) => line.match(pattern)).find((m) => m !== null);
      if (seen) return resolve(seen);
      const done = () => {
        listeners.delete(listener);
        clearTimeout(timer);
      };
      const listener = (line: string) => {
        const match = line.match(pattern);
        if (match === null) return;
        done();
        resolve(match);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`worker ${file} printed no line matching ${pattern} within ${timeoutMs} ms; stderr:\n${errors}`));
      }, timeoutMs);
      listeners.add(listener);
      void exited.then(({ code, signal }) => {
        if (!listeners.has(listener)) return;
        done();
        reject(new Error(`worker ${file} exited (${code ?? signal}) before printing ${pattern}; stderr:\n${errors}`));
      });
    });

  return {
    child,
    pid: child.pid!,
    waitFor,
    exited,
    async kill(signal) {
      if (!ended) child.kill(signal);
      return exited;
    },
    stderr: () => errors,
  };
}

/** A server process, listening: its base URL for `createHTTPCapabilityClient`. */
export async function startServer(env: Record<string, string | undefined>): Promise<Worker & { url: string }> {
  const worker = startWorker("./server.ts", { env });
  const [, port] = await worker.waitFor(/^READY (\d+)$/);
  return Object.assign(worker, { url: `http://127.0.0.1:${port}/rpc` });
}
