import type { ChildProcess } from "node:child_process";

const POSIX = process.platform !== "win32";

/** Spawn option: on POSIX the loader child leads its own process group (docs/architecture/spec/cli.md#cli-5-1, decided there). */
export const OWN_PROCESS_GROUP = POSIX;

/**
 * Ties a child's process group to this process: `kill()` SIGKILLs the whole group (the application may
 * have started workers or servers); until `release()`, this process ending or being interrupted kills it
 * too. The child leads its own group, so a terminal's Ctrl-C no longer reaches it by itself.
 */
export function guardProcessGroup(child: ChildProcess): { kill(): void; release(): void } {
  const kill = () => {
    if (child.pid === undefined) return;
    try {
      if (POSIX) process.kill(-child.pid, "SIGKILL");
      else child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  };
  const onSignal = (signal: NodeJS.Signals) => {
    kill();
    release();
    // Let the signal take its default course now that the child is gone.
    process.kill(process.pid, signal);
  };
  const release = () => {
    process.removeListener("exit", kill);
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  };
  process.once("exit", kill);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return { kill, release };
}
