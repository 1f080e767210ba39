// `pnpm demo` as a child process on a Node that runs Mastra (support/modern-node.ts), on a fresh PGlite folder:
// what it prints is what happened.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runDemo } from "./support/processes.js";

describe("pnpm demo", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "orpc-agent-task-board-demo-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("walks through the governed board: hidden internal tool, owner approval with refusals, resumed move, denied deletion, audit", async () => {
    const { stdout, stderr } = await runDemo(dataDir);
    expect(stderr).toBe("");
    const lines = stdout.split("\n").map((line) => line.trimEnd());
    const step = (n: number) => lines.slice(lines.findIndex((l) => l.startsWith(`${String(n).padStart(2)}. `)), undefined).slice(0, 2);

    expect(step(1)).toEqual([expect.stringMatching(/Ada's agent gets its tools\s+4 tools$/), "    boards_list, boards_delete, tasks_move, tasks_assign"]);
    expect(step(2)[1]).toBe("    boards_list, boards_delete, tasks_move, tasks_assign, internal_reindex");
    expect(step(4)).toEqual([expect.stringMatching(/card pending$/), "    Awaiting approval: Completing a task on Ops needs its owner Ben's approval."]);
    expect(step(5)).toEqual([expect.stringMatching(/Ada approves her own request\s+refused$/), "    Refused: The approver must differ from the requesting actor. The request is still pending."]);
    expect(step(6)).toEqual([expect.stringMatching(/refused$/), "    Refused: only Ben decides this request."]);
    expect(step(7)).toEqual([expect.stringMatching(/card completed$/), '    {"status":"ok","data":{"taskId":"t_keys","title":"Rotate the on-call keys","status":"done"}}']);
    expect(step(8)).toEqual([expect.stringMatching(/Ada: delete the Ops board\s+output-denied$/), "    Agents may not delete boards; the owner deletes a board on the board page."]);
    expect(step(9)).toEqual([expect.stringMatching(/Root: reindex the boards \(internal\)\s+output-available$/), '    Ada asking the same hears: "I have no tool for that."']);

    expect(stdout).toMatch(/capability\.approval_requested ×1, capability\.approved ×1, capability\.denied ×1\)/);
    expect(stdout).toContain('board: "Rotate the on-call keys" is done; the Ops board still exists; effects {"moved":1,"deleted":0,"reindexed":1}');
  });
});
