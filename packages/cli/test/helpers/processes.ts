import { readFileSync } from "node:fs";

/** Whether a process is gone: no such pid, or a zombie awaiting a reaper (it can no longer run). */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

export async function waitUntilGone(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (pids.every(isGone)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return pids.every(isGone);
}
