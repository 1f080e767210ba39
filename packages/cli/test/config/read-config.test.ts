import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commandOptions } from "../../src/commands/command-options.js";
import { readConfig } from "../../src/config/read-config.js";
import { tempDir } from "../helpers/run-cli.js";

function withPackageJson(text: string): string {
  const dir = tempDir();
  writeFileSync(join(dir, "package.json"), text);
  return dir;
}

describe("readConfig (cli.md §4)", () => {
  it("reads entry, export and snapshot under orpcAgent", () => {
    const dir = withPackageJson(JSON.stringify({ orpcAgent: { entry: "src/agent.ts", export: "governance", snapshot: "caps.json" } }));
    expect(readConfig(dir)).toEqual({ ok: true, config: { entry: "src/agent.ts", export: "governance", snapshot: "caps.json" } });
  });

  it("a missing or unparsable package.json means no config", () => {
    expect(readConfig(tempDir())).toEqual({ ok: true, config: {} });
    expect(readConfig(withPackageJson("{ not json"))).toEqual({ ok: true, config: {} });
  });

  it("a non-string value is a usage error", () => {
    expect(readConfig(withPackageJson(JSON.stringify({ orpcAgent: { entry: 42 } })))).toEqual({
      ok: false,
      error: "package.json: orpcAgent.entry must be a string",
    });
    expect(readConfig(withPackageJson(JSON.stringify({ orpcAgent: "src/agent.ts" }))).ok).toBe(false);
  });

  it("precedence: flag > config > default", () => {
    const config = { entry: "config.ts", snapshot: "config.json" };
    expect(commandOptions({ entry: "flag.ts" }, config, "/app")).toMatchObject({ entry: "flag.ts", snapshotLabel: "config.json", snapshotPath: "/app/config.json" });
    expect(commandOptions({}, {}, "/app")).toMatchObject({
      entry: undefined,
      snapshotLabel: "capabilities.snapshot.json",
      snapshotCustom: false,
      failOn: "any",
      format: "plain",
      verbosity: "normal",
      timeoutMs: 30_000,
      descriptions: true,
    });
  });
});
