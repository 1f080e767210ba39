// The unused-code check (issue 33): knip, as `pnpm check:unused` runs it, fails on an export nobody imports.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const KNIP = fileURLToPath(new URL("../../node_modules/.bin/knip", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./fixtures/unused/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "check-unused-"));
cpSync(FIXTURE, dir, { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function knip(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(KNIP, ["--no-progress", "--directory", dir], { encoding: "utf8" }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe("check-unused", { timeout: 60_000 }, () => {
  it("fails on an unused export and names it", async () => {
    const { code, output } = await knip();
    expect(code).toBe(1);
    expect(output).toMatch(/Unused exports \(1\)\s+triple\s+src\/math\.ts/);
  });

  it("passes once the dead export is gone", async () => {
    const math = join(dir, "src/math.ts");
    writeFileSync(math, readFileSync(math, "utf8").replace(/\n\/\/ Nobody[\s\S]*$/, "\n"));
    expect(await knip()).toEqual({ code: 0, output: "" });
  });
});
