import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The `orpcAgent` key of the application's package.json (docs/architecture/spec/cli.md#cli-4). There is no other config file. */
export type AgentConfig = { entry?: string; export?: string; snapshot?: string };

export type ConfigResult = { ok: true; config: AgentConfig } | { ok: false; error: string };

const KEYS = ["entry", "export", "snapshot"] as const;

/** Reads `<cwd>/package.json`. Missing or unparsable means no config; a non-string value is a usage error. */
export function readConfig(cwd: string): ConfigResult {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8"));
  } catch {
    return { ok: true, config: {} };
  }
  if (typeof manifest !== "object" || manifest === null) return { ok: true, config: {} };
  const section = (manifest as Record<string, unknown>).orpcAgent;
  if (section === undefined) return { ok: true, config: {} };
  if (typeof section !== "object" || section === null || Array.isArray(section)) {
    return { ok: false, error: "package.json: orpcAgent must be an object like { \"entry\": \"src/agent.ts\" }" };
  }
  const config: AgentConfig = {};
  for (const key of KEYS) {
    const value = (section as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== "string") return { ok: false, error: `package.json: orpcAgent.${key} must be a string` };
    config[key] = value;
  }
  return { ok: true, config };
}
