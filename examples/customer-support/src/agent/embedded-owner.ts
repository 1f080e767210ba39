import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";

// This process's own live markers: another open of the same folder in this process is refused like any other,
// while a marker with this pid that is not here was left by an earlier process that had the same pid.
const claimedHere = new Set<string>();

/**
 * PGlite serves one process: a second process opening the same folder neither fails nor warns, and the two silently
 * diverge (and may damage the folder). So each process claims the folder before opening it: it writes a marker
 * named after its pid into `<folder>.owners/`, then looks for another marker whose process is alive. If there is
 * one, it withdraws its own and refuses. Two processes starting at the same instant may both refuse, never both
 * open. A marker whose process is gone (stopped, crashed, SIGKILLed) is ignored and removed, so a claim never goes
 * stale. One folder has many names (a symlink, `dir/.`): the claim is made on the path the file system resolves them
 * all to, so the folder is created first. The pid check assumes the processes share one machine and pid namespace,
 * as `pnpm mcp` and `pnpm demo:web` started from one checkout do.
 */
export function claimEmbeddedFolder(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const folder = realpathSync.native(dataDir);
  const owners = join(dirname(folder), `${basename(folder)}.owners`);
  // The random part keeps a later process that reuses this pid from ever taking this marker for its own.
  const mine = `${process.pid}-${randomUUID()}`;
  const marker = join(owners, mine);
  writeMarker(owners, marker);

  for (const name of readdirSync(owners)) {
    if (name === mine) continue;
    const pid = Number.parseInt(name, 10);
    const live = pid === process.pid ? claimedHere.has(name) : isAlive(pid);
    if (!live) {
      removeQuietly(join(owners, name));
      continue;
    }
    removeQuietly(marker);
    if (pid === process.pid) {
      throw new Error(`The embedded database in ${dataDir} is already open in this process: close that storage first.`);
    }
    throw new Error(
      `The embedded database in ${dataDir} is already open in another process (pid ${pid}${describeOwner(join(owners, name))}). ` +
        "PGlite serves one process at a time; a second one would silently see different data. " +
        "Stop that process first, or run both on one PostgreSQL server: set DATABASE_URL=postgres://… for each. " +
        `(If no process of this app has pid ${pid}, delete ${owners}.)`,
    );
  }

  claimedHere.add(mine);
  const release = () => {
    claimedHere.delete(mine);
    removeQuietly(marker);
    // Leave no empty folder behind; one that holds another marker stays (rmdir refuses).
    try {
      rmdirSync(owners);
    } catch {
      // Not empty, or already gone.
    }
  };
  // A normal exit that skipped close() (process.exit) still withdraws the marker; a kill leaves a dead pid's marker.
  process.once("exit", release);
  return {
    release() {
      process.removeListener("exit", release);
      release();
    },
  };
}

/** Creates the folder and the marker; a releasing owner may remove the empty folder in between, so try again. */
function writeMarker(owners: string, marker: string): void {
  for (let attempt = 1; ; attempt++) {
    mkdirSync(owners, { recursive: true });
    try {
      writeFileSync(marker, commandLine(), { flag: "wx" });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt === 5) throw error;
    }
  }
}

/** Signal 0 probes without signalling: ESRCH means no such process; EPERM means one exists (another user's). */
function isAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function commandLine(): string {
  return process.env.npm_lifecycle_event ? `pnpm ${process.env.npm_lifecycle_event}` : relative(process.cwd(), process.argv[1] ?? "node");
}

function describeOwner(marker: string): string {
  try {
    const what = readFileSync(marker, "utf8").trim();
    return what === "" ? "" : `: ${what}`;
  } catch {
    return "";
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone: removed by its owner, or by another process that found it dead.
  }
}
