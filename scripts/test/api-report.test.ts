// The API-report check (issue 33): a declaration change without its report fails; the committed report passes.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { extractReport, reportName } from "../api-report.mjs";

const FIXTURE = fileURLToPath(new URL("./fixtures/api-report/", import.meta.url));
const copies: string[] = [];

/** A private copy of the fixture package, so a test may break it. */
function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), "api-report-"));
  cpSync(FIXTURE, dir, { recursive: true });
  copies.push(dir);
  return dir;
}
const check = (dir: string, update = false) =>
  extractReport({ packageDir: dir, types: "./lib/index.d.ts", name: "index", reportFolder: join(dir, "api"), update });

afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("api-report", { timeout: 60_000 }, () => {
  it("passes when the declarations match the committed report", () => {
    expect(check(copy())).toEqual({ changed: false, errors: [] });
  });

  it("fails when a declaration changes and the report is not updated", () => {
    const dir = copy();
    const dts = join(dir, "lib/index.d.ts");
    writeFileSync(dts, readFileSync(dts, "utf8").replace("b: number): number", "b: number, c?: number): number"));
    const committed = readFileSync(join(dir, "api/index.api.md"), "utf8");
    expect(check(dir).changed).toBe(true);
    // The check never rewrites the committed report; --update does.
    expect(readFileSync(join(dir, "api/index.api.md"), "utf8")).toBe(committed);
    expect(check(dir, true).changed).toBe(true);
    expect(readFileSync(join(dir, "api/index.api.md"), "utf8")).toContain("add(a: number, b: number, c?: number): number");
    expect(check(dir).changed).toBe(false);
  });

  it("names one report per entry point", () => {
    expect([".", "./schema", "./schema/valibot"].map(reportName)).toEqual(["index", "schema", "schema-valibot"]);
  });
});
