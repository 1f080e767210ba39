// Which Chromium the browser tests drive: CHROMIUM_PATH, then the system's /usr/bin/chromium, then the binary
// the `@sparticuz/chromium` npm package ships (unpacked to the temp folder), so a machine with only Node runs them.
// ORPC_AGENT_IGNORE_SYSTEM_CHROMIUM=1 skips the system binary, to exercise the npm one where both exist.
import { existsSync } from "node:fs";

export type ChromiumBinary = { source: "CHROMIUM_PATH" | "system" | "npm"; executablePath: string };

export async function resolveChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumBinary> {
  if (env.CHROMIUM_PATH) return { source: "CHROMIUM_PATH", executablePath: env.CHROMIUM_PATH };
  if (env.ORPC_AGENT_IGNORE_SYSTEM_CHROMIUM !== "1" && existsSync("/usr/bin/chromium")) {
    return { source: "system", executablePath: "/usr/bin/chromium" };
  }
  const { default: packaged } = await import("@sparticuz/chromium");
  return { source: "npm", executablePath: await packaged.executablePath() };
}
