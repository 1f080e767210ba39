// Import never finishes: a top-level await on a long timer (a bare promise would let Node exit).
// It also starts a grandchild, so the test can check the whole process group is killed.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";

const grandchild = spawn(process.execPath, ["-e", "setTimeout(() => {}, 120000)"], { stdio: "ignore" });
if (process.env.HANGS_PID_FILE) {
  writeFileSync(process.env.HANGS_PID_FILE, JSON.stringify({ child: process.pid, grandchild: grandchild.pid }));
}
await new Promise((resolve) => setTimeout(resolve, 120_000));

export const registry = undefined;
