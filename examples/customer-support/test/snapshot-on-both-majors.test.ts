// Issue 31: the example's capabilities snapshot is the same bytes whichever oRPC major the example is built on. The
// CLI, as CI runs it (`orpc-agent snapshot -o -` in this folder), once on the installed oRPC 1 and once with every
// `@orpc/server` and `@orpc/client` import resolved to the pinned 2.0 beta (test/support/orpc-v2-loader.mjs); a
// probe under the same flags proves which major actually built the procedures.
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const example = fileURLToPath(new URL("..", import.meta.url));
const bin = fileURLToPath(new URL("../../../packages/cli/bin/orpc-agent.js", import.meta.url));
const loader = fileURLToPath(new URL("./support/orpc-v2-loader.mjs", import.meta.url));
const probe = fileURLToPath(new URL("./support/orpc-major-probe.ts", import.meta.url));
const committed = readFileSync(new URL("../capabilities.snapshot.json", import.meta.url), "utf8");
const plainMeta = fileURLToPath(new URL("../src/agent/governance.plain-meta.tmp.ts", import.meta.url));

/** NODE_OPTIONS reach the CLI's loader child too (it inherits the environment). */
const envFor = (major: 1 | 2) => {
  const options = (process.env.NODE_OPTIONS ?? "").split(/\s+/).filter((option) => option !== "" && !option.includes("orpc-v2-loader"));
  return { ...process.env, NODE_OPTIONS: (major === 2 ? [...options, "--import", loader] : options).join(" "), NO_COLOR: "1" };
};

async function cli(major: 1 | 2, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: example, env: envFor(major), maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function snapshotOn(major: 1 | 2): Promise<string> {
  const { code, stdout, stderr } = await cli(major, "snapshot", "-o", "-");
  expect(stderr).toBe("");
  expect(code).toBe(0);
  return stdout;
}

async function probeOn(major: 1 | 2) {
  const { stdout } = await run(process.execPath, ["--import", "tsx", probe], { cwd: example, env: envFor(major) });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { version: string; defineMeta: boolean; metaPlugins: boolean; inputSchemas: boolean; agentDescription: string | null };
}

describe("the example's capabilities snapshot on oRPC 1 and oRPC 2", () => {
  afterAll(() => rmSync(plainMeta, { force: true }));

  it("the probe sees oRPC 1 without the loader and the 2.0 beta with it, the agent metadata declared on both", async () => {
    const [one, two] = await Promise.all([probeOn(1), probeOn(2)]);
    const description = "Refund part or all of an order to the customer's original payment method.";
    expect(one).toEqual({ version: expect.stringMatching(/^1\./), defineMeta: false, metaPlugins: false, inputSchemas: false, agentDescription: description });
    expect(two).toEqual({ version: expect.stringMatching(/^2\.0\.0-beta\./), defineMeta: true, metaPlugins: true, inputSchemas: true, agentDescription: description });
  });

  it("`orpc-agent snapshot -o -` prints the committed snapshot, byte for byte, on either major", async () => {
    const one = await snapshotOn(1);
    const two = await snapshotOn(2);
    expect(one).toBe(committed);
    expect(two).toBe(one);
  });

  it("the CLI's loader child really runs on the 2.0 beta: a plain .meta({ agent }), which oRPC 2 ignores, is refused there and read on oRPC 1", async () => {
    writeFileSync(
      plainMeta,
      [
        'import { createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";',
        'import { base } from "../api/base.js";',
        'import { router } from "../api/router.js";',
        'const legacy = base.meta({ agent: { description: "A 1.x-style declaration.", expose: { direct: true }, sideEffect: "read", risk: "low" } }).handler(() => "ok");',
        "export const governance = defineGovernance({ registry: createCapabilityRegistry({ ...router, legacy: { lookup: legacy } }) });",
        "",
      ].join("\n"),
    );
    const args = ["snapshot", "-o", "-", "--entry", "src/agent/governance.plain-meta.tmp.ts", "--export", "governance"];
    const [one, two] = await Promise.all([cli(1, ...args), cli(2, ...args)]);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout).capabilities.map((c: { id: string }) => c.id)).toContain("legacy.lookup");
    expect(two.code).toBe(2);
    expect(two.stderr).toContain("legacy.lookup");
    expect(two.stderr).toContain("agentMeta");
  });
});
