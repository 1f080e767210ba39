import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// docs/architecture/spec/postgres.md#postgres-9-6: the workspace boundary check covers this package's sources and manifest.
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as Record<
  string,
  Record<string, string> | undefined
>;

describe("package boundaries (postgres.md §1, §9.6)", () => {
  it("the workspace boundary check reports nothing under packages/postgres", () => {
    const run = spawnSync(process.execPath, ["scripts/check-boundaries.mjs"], { cwd: repoRoot, encoding: "utf8" });
    expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/packages\/postgres\//);
  });

  it("lists no driver as a dependency and @orpc-agent/core only as a peer and a devDependency", () => {
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
      for (const name of Object.keys(manifest[field] ?? {})) {
        expect(name, `${field} lists ${name}`).not.toMatch(/^(pg|pg-.+|postgres|@electric-sql\/.+|@neondatabase\/.+)$/);
      }
    }
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(Object.keys(manifest.peerDependencies ?? {})).toEqual(["@orpc-agent/core"]);
    expect(Object.keys(manifest.devDependencies ?? {})).toContain("@orpc-agent/core");
    expect(Object.keys(manifest.optionalDependencies ?? {})).not.toContain("@orpc-agent/core");
  });
});
