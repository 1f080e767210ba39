import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const script = fileURLToPath(new URL("../check-no-skipped.mjs", import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), "no-skipped-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(report: unknown): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(report));
  return new Promise((resolve) => {
    execFile(process.execPath, [script, file], { encoding: "utf8" }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

const file = (statuses: string[]) => ({
  name: "/repo/packages/postgres/test/ddl.test.ts",
  assertionResults: statuses.map((status, i) => ({ status, fullName: `case ${i}` })),
});

it("passes when every test ran", async () => {
  const result = await check({ numTotalTests: 2, numPendingTests: 0, numTodoTests: 0, testResults: [file(["passed", "passed"])] });
  expect(result).toMatchObject({ code: 0, stdout: "check-no-skipped: all 2 tests ran\n" });
});

it("fails on a skipped test and names it", async () => {
  const result = await check({ numTotalTests: 2, numPendingTests: 1, numTodoTests: 0, testResults: [file(["passed", "skipped"])] });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("1 of 2 tests did not run");
  expect(result.stderr).toContain("ddl.test.ts: case 1 (skipped)");
});

it("fails on a todo test and on a report with no test", async () => {
  expect((await check({ numTotalTests: 1, numPendingTests: 0, numTodoTests: 1, testResults: [file(["todo"])] })).code).toBe(1);
  expect((await check({ numTotalTests: 0, testResults: [] })).code).toBe(1);
});
