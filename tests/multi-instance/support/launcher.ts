// Starts instance.ts as real child processes and watches their stdout: the suite waits on the lines an instance
// prints ("ready <port>", "effect <capability> <key>"), never on time.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("./instance.ts", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

export type Instance = {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Every stdout line so far. */
  lines: string[];
  /** Resolves with the first line (already printed or still to come) that matches. */
  waitForLine: (match: RegExp) => Promise<string>;
  /** SIGKILL: no drain, no closing checkpoint, sockets reset. */
  kill9: () => Promise<void>;
  /** SIGTERM: the instance drains its audit trail and exits. */
  stop: () => Promise<void>;
};

export type InstanceEnv = { databaseUrl: string; schema: string; publicUrl: string; auditKeyPath: string };

/** How to run an instance process: for a caller that spawns it itself (the stdio client does). */
export function instanceCommand(name: string, config: InstanceEnv, extra: Record<string, string> = {}) {
  return {
    command: process.execPath,
    args: ["--conditions=@orpc-agent/source", "--import", "tsx", ENTRY],
    cwd: REPO_ROOT,
    env: {
      ...(process.env as Record<string, string>),
      MI_INSTANCE: name,
      MI_DATABASE_URL: config.databaseUrl,
      MI_SCHEMA: config.schema,
      MI_PUBLIC_URL: config.publicUrl,
      MI_AUDIT_KEY: config.auditKeyPath,
      ...extra,
    },
  };
}

export async function startInstance(name: string, config: InstanceEnv): Promise<Instance> {
  const { command, args, cwd, env } = instanceCommand(name, config);
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiters: { match: RegExp; resolve: (line: string) => void }[] = [];
  let stderr = "";
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      resolve();
    }),
  );
  let partial = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    partial += chunk.toString("utf8");
    const complete = partial.split("\n");
    partial = complete.pop()!;
    for (const line of complete) {
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.match.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));

  const waitForLine = (match: RegExp) => {
    const seen = lines.find((line) => match.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      waiters.push({ match, resolve });
      void exit.then(() => reject(new Error(`instance ${name} exited (${JSON.stringify(exited)}) before printing ${match}:\n${stderr}`)));
    });
  };

  const ready = await waitForLine(/^ready \d+$/);
  const port = Number(ready.split(" ")[1]);
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    lines,
    waitForLine,
    kill9: async () => {
      if (exited === undefined) child.kill("SIGKILL");
      await exit;
    },
    stop: async () => {
      if (exited === undefined) child.kill("SIGTERM");
      await exit;
      if (exited?.code !== 0 && exited?.signal !== "SIGKILL") throw new Error(`instance ${name} stopped badly (${JSON.stringify(exited)}):\n${stderr}`);
    },
  };
}
