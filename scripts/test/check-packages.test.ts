// The packaging check (issue 33) on deliberately broken packages: each slip is caught by the layer meant for it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintTarball, tarballName } from "../check-packages.mjs";

const FIXTURES = fileURLToPath(new URL("./fixtures/packaging/", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "check-packages-"));
const tarballs: Record<string, string> = {};

beforeAll(() => {
  for (const fixture of readdirSync(FIXTURES)) {
    const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: join(FIXTURES, fixture), encoding: "utf8" });
    tarballs[fixture] = join(out, name.trim());
  }
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("check-packages", { timeout: 60_000 }, () => {
  it("passes a sound package", () => {
    expect(lintTarball(tarballs.sound)).toEqual([]);
  });

  it("fails an exports condition naming a file that is not packed (the src/ slip)", () => {
    const problems = lintTarball(tarballs["source-condition"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('exports["."]["@fixture/source"]: ./src/index.ts');
  });

  it("fails publint --strict on a types condition after import", () => {
    const problems = lintTarball(tarballs["types-last"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^publint --strict:[\s\S]*types should be the first/);
  });

  it("fails attw (ESM-only profile) on declarations NodeNext cannot resolve", () => {
    const problems = lintTarball(tarballs["extensionless-types"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^attw --profile esm-only:[\s\S]*failed to resolve/);
  });

  it("names tarballs as pnpm does", () => {
    expect(tarballName({ name: "@orpc-agent/core", version: "5.0.0" })).toBe("orpc-agent-core-5.0.0.tgz");
  });
});
