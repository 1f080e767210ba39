// The CI drift gate on the example: `orpc-agent check` passes on the committed snapshot, and fails (exit 1) when
// the refund-threshold policy, the gate that sends large refunds to a manager, is taken out of the governance.
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const example = fileURLToPath(new URL("..", import.meta.url));
const bin = fileURLToPath(new URL("../../../packages/cli/bin/orpc-agent.js", import.meta.url));
const weakened = fileURLToPath(new URL("../src/agent/governance.without-gate.tmp.ts", import.meta.url));

async function check(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, "check", ...args], { cwd: example });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("pnpm check:capabilities", () => {
  afterAll(() => rmSync(weakened, { force: true }));

  it("passes on the committed snapshot", async () => {
    const result = await check();
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("fails with exit 1 when the example's gating policy is removed", async () => {
    const source = readFileSync(new URL("../src/agent/governance.ts", import.meta.url), "utf8");
    const withoutGate = source.replace("policies: [refundThreshold, noAgentDeletes, staffOnlyInternal]", "policies: [noAgentDeletes, staffOnlyInternal]");
    expect(withoutGate).not.toBe(source);
    writeFileSync(weakened, withoutGate);
    const result = await check("--entry", "src/agent/governance.without-gate.tmp.ts", "--export", "governance");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("refund-threshold");
  });
});
