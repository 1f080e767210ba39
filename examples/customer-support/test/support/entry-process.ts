// One of the example's entry points (`pnpm mcp`, `pnpm demo:web`) as a real child process, started the way its
// package.json script starts it, but in a folder of the test's choosing: `.data/pglite` is relative to the working
// directory, so a temporary one keeps the developer's own data out of the test.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const EXAMPLE = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** tsx's ESM loader as a file URL: `--import tsx` would resolve from the child's working directory, which has none. */
function tsxLoader(): string {
  const manifest = createRequire(join(EXAMPLE, "package.json")).resolve("tsx/package.json");
  const { exports } = JSON.parse(readFileSync(manifest, "utf8")) as { exports: { ".": string } };
  return pathToFileURL(join(dirname(manifest), exports["."])).href;
}

export type EntryProcess = {
  child: ChildProcess;
  pid: number;
  output(): string;
  /** Resolves with the first output line matching `pattern`; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<string>;
  /** Resolves once the process has exited and its output has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** The package.json script that runs each entry: pnpm tells the child through `npm_lifecycle_event`. */
const SCRIPTS = { "src/mcp/main.ts": "mcp", "src/web/main.ts": "demo:web", "src/cluster/main.ts": "mcp:cluster" } as const;

export function startEntry(entry: keyof typeof SCRIPTS, cwd: string): EntryProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", WEB_PORT: "0", npm_lifecycle_event: SCRIPTS[entry] };
  // The embedded default, as a user without a database runs it (the cluster reads TEST_DATABASE_URL too).
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  const child = spawn(process.execPath, ["--conditions=@orpc-agent/source", "--import", tsxLoader(), join(EXAMPLE, entry)], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  let closed = false;
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (const check of waiters) check();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    // "close", not "exit": the output is complete only once both pipes have ended.
    child.once("close", (code, signal) => {
      closed = true;
      for (const check of waiters) check();
      done({ code, signal });
    }),
  );

  return {
    child,
    pid: child.pid!,
    output: () => text,
    exited,
    waitFor(pattern) {
      return new Promise((found, failed) => {
        const check = () => {
          const line = text.split("\n").find((l) => pattern.test(l));
          if (line !== undefined) {
            waiters.delete(check);
            found(line);
          } else if (closed) {
            waiters.delete(check);
            failed(new Error(`${entry} exited before printing ${pattern}:\n${text}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}
