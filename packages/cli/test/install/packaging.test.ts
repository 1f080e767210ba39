import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILT, CLI_DIR } from "../helpers/paths.js";
import { tempDir } from "../helpers/run-cli.js";

const APP = `import { os } from "@orpc/server";
import { createCapabilityRegistry } from "@orpc-agent/core";
export const registry = createCapabilityRegistry({
  ping: os.meta({ agent: { description: "Ping.", expose: { aiSdk: true }, sideEffect: "none", risk: "low" } }).handler(() => "pong"),
});
`;

let app: string;

/** The real directory of a package as `from` would resolve it, walking up node_modules. */
function installedPackageDir(from: string, name: string): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
  }
  throw new Error(`${name} is not installed above ${from}`);
}

function orpcAgent(args: string[]) {
  const run = spawnSync(process.execPath, [join(app, "node_modules/@orpc-agent/cli/bin/orpc-agent.js"), ...args], {
    cwd: app,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe.skipIf(!BUILT)("packaging (cli.md §3): the packed tarball, optional dependencies omitted", () => {
  beforeAll(() => {
    const packs = tempDir();
    execFileSync("npm", ["pack", "--silent", "--pack-destination", packs], { cwd: CLI_DIR, stdio: "pipe" });
    const tarball = join(packs, readdirSync(packs).find((name) => name.endsWith(".tgz")) as string);

    app = tempDir();
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "packed-app", private: true, type: "module" }));
    writeFileSync(join(app, "app.js"), APP);
    execFileSync(
      "npm",
      ["install", tarball, "--omit=optional", "--legacy-peer-deps", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock"],
      { cwd: app, stdio: "pipe" },
    );
    // The peer and the app's own framework, as the application would have installed them.
    mkdirSync(join(app, "node_modules/@orpc"), { recursive: true });
    symlinkSync(realpathSync(join(CLI_DIR, "../core")), join(app, "node_modules/@orpc-agent/core"), "dir");
    symlinkSync(installedPackageDir(join(CLI_DIR, "../core"), "@orpc/server"), join(app, "node_modules/@orpc/server"), "dir");
  }, 60_000);

  it("installs without ink or react", () => {
    expect(readdirSync(join(app, "node_modules"))).not.toContain("ink");
    expect(readdirSync(join(app, "node_modules"))).not.toContain("react");
  });

  it("inspect (plain), snapshot and check work", () => {
    const inspect = orpcAgent(["inspect", "--entry", "app.js"]);
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).toContain("1 capability · 1 exposed · declared gates: 0 approval · runtime policies not observed");
    expect(orpcAgent(["snapshot", "--entry", "app.js"]).code).toBe(0);
    expect(orpcAgent(["check", "--entry", "app.js"])).toMatchObject({ code: 0, stdout: "No capability drift.\n" });
  });

  it("init refuses with the install hint and the config to set by hand", () => {
    const init = orpcAgent(["init", "--entry", "app.js"]);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain("ink react");
    expect(init.stderr).toContain('"entry": "app.js"');
  });
});
