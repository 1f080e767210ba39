// The CI drift gate on the task board: `orpc-agent check` (the CLI as a child process) passes on the committed
// snapshot and fails with exit 1 when the approval policy, the one that sends a completion on someone else's board
// to its owner, is taken out of the governance. The governance imports no Mastra, so this runs on the leg's own Node.
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const example = fileURLToPath(new URL("..", import.meta.url));
const bin = fileURLToPath(new URL("../../../packages/cli/bin/orpc-agent.js", import.meta.url));
const weakened = fileURLToPath(new URL("../src/agent/governance.without-approval.tmp.ts", import.meta.url));

async function check(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, "check", ...args], { cwd: example });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("pnpm --filter @orpc-agent/example-task-board check:capabilities", () => {
  afterAll(() => rmSync(weakened, { force: true }));

  it("passes on the committed snapshot", async () => {
    const result = await check();
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("No capability drift.");
    expect(result.code).toBe(0);
  });

  it("fails with exit 1 when the board owner's approval policy is removed", async () => {
    const source = readFileSync(new URL("../src/agent/governance.ts", import.meta.url), "utf8");
    const withoutApproval = source.replace("policies: [doneNeedsOwner, noAgentDeletes, internalForAdmins]", "policies: [noAgentDeletes, internalForAdmins]");
    expect(withoutApproval).not.toBe(source);
    writeFileSync(weakened, withoutApproval);
    const result = await check("--entry", "src/agent/governance.without-approval.tmp.ts", "--export", "governance");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("done-needs-board-owner");
  });
});
