import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../mutation-report.mjs", import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), "mutation-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (line: number, column: number) => ({ start: { line, column }, end: { line, column: column + 4 } });

/** A report in Stryker's JSON schema with one file per area and every status the summary must count. */
const REPORT = {
  files: {
    "packages/core/src/runtime/invoke.ts": {
      source: "const a = true;\nif (x > 0) run();\n",
      mutants: [
        { id: "1", mutatorName: "BooleanLiteral", replacement: "false", status: "Killed", location: at(1, 11) },
        { id: "2", mutatorName: "EqualityOperator", replacement: "x >= 0", status: "Survived", location: at(2, 5) },
        { id: "3", mutatorName: "BlockStatement", replacement: "{}", status: "Timeout", location: at(2, 1) },
      ],
    },
    "packages/core/src/policy/scope.ts": {
      source: "return a | b;\n",
      mutants: [
        { id: "4", mutatorName: "ArrayDeclaration", replacement: "[]", status: "NoCoverage", location: at(1, 8) },
        { id: "5", mutatorName: "StringLiteral", replacement: '""', status: "CompileError", location: at(1, 1) },
      ],
    },
  },
};

function run(file: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, file], { encoding: "utf8" }, (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }));
  });
}

describe("mutation-report.mjs", () => {
  it("scores each area over detected and undetected mutants, and lists every undetected one with its place", async () => {
    const file = path.join(dir, "mutation.json");
    writeFileSync(file, JSON.stringify(REPORT));
    const { code, stdout } = await run(file);
    expect(code).toBe(0);
    expect(stdout).toContain("| runtime | 2 | 1 | 66.7% |");
    expect(stdout).toContain("| policy | 0 | 1 | 0.0% |");
    expect(stdout).toContain("| **all** | 2 | 2 | **50.0%** |");
    expect(stdout).toContain("(1 mutants were not run");
    expect(stdout).toContain("| `runtime/invoke.ts:2:5` | EqualityOperator | Survived | `x >= 0` | `if (x > 0) run();` |");
    // A pipe in source text is escaped so the table keeps its columns.
    expect(stdout).toContain("| `policy/scope.ts:1:8` | ArrayDeclaration | NoCoverage | `[]` | `return a \\| b;` |");
    expect(stdout).not.toContain("BooleanLiteral");
  });

  it("fails loudly when there is no report to read", async () => {
    const { code } = await run(path.join(dir, "missing.json"));
    expect(code).not.toBe(0);
  });
});
