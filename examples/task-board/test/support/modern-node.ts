// Mastra needs Node >= 22.13. The suite also runs on the Node 20.19 leg, so everything that loads Mastra runs as a
// child process on a modern Node: the leg's own when it is new enough, else a Node 24 from scripts/install-node.sh.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const installer = fileURLToPath(new URL("../../../../scripts/install-node.sh", import.meta.url));

export function modernNode(): string {
  const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
  if (major > 22 || (major === 22 && minor >= 13)) return process.execPath;
  return execFileSync("sh", [installer, "24"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}
