// Release metadata (issue 33): what the manifests promise is what CI tests. Public packages are public and carry
// the independence disclaimer; everything else is private; `engines` is the floor of the .ci/run Node matrix;
// each peer range admits the version the tests run and the `ai` range is exactly the majors with a leg.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CI = readFileSync(join(ROOT, ".ci/run"), "utf8");
const DISCLAIMER = "oRPC Agent is an independent community project, not affiliated with or endorsed by the oRPC maintainers.";
const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const packages = readdirSync(join(ROOT, "packages")).map((folder) => ({ folder, dir: join(ROOT, "packages", folder), manifest: read(join(ROOT, "packages", folder, "package.json")) }));

/** The version of `name` that `from` resolves, walking up node_modules as Node does. */
function installedVersion(from: string, name: string): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, "node_modules", name, "package.json");
    if (existsSync(file)) return read(file).version;
  }
  throw new Error(`${name} is not installed above ${from}`);
}

/** Caret ranges joined by `||` are the only form the manifests use; anything else is refused. */
function satisfies(version: string, range: string): boolean {
  return range.split("||").some((part) => {
    const match = /^\^(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(part.trim());
    if (!match) throw new Error(`unsupported range ${range}`);
    const want = [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
    const have = version.split(/[.-]/).slice(0, 3).map(Number);
    if (have[0] !== want[0]) return false;
    return have[1] > want[1] || (have[1] === want[1] && have[2] >= want[2]);
  });
}

/** The Node versions the README's test command runs on in .ci/run (one `readme_tests <version>` line each). */
function nodeMatrix(): string[] {
  const versions = [...CI.matchAll(/^readme_tests ([\d.]+)$/gm)].map((match) => match[1]!);
  if (versions.length === 0) throw new Error(".ci/run has no Node matrix");
  return versions;
}

describe("release metadata", () => {
  it.each(packages)("$folder is public, names only dist/, and its README carries the disclaimer", ({ dir, manifest }) => {
    expect(manifest.private).toBeUndefined();
    expect(manifest.publishConfig.access).toBe("public");
    expect(manifest.files).toContain("dist");
    expect(readFileSync(join(dir, "README.md"), "utf8")).toContain(DISCLAIMER);
  });

  it("the root README carries the disclaimer", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(DISCLAIMER);
  });

  it("examples, docs and test fixtures are private", () => {
    const others = [...readdirSync(join(ROOT, "examples"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `examples/${e.name}`), "docs", "test-fixtures", "."];
    for (const dir of others) expect(read(join(ROOT, dir, "package.json")).private, dir).toBe(true);
  });

  it("engines.node is the floor of the CI Node matrix, and the matrix tests it", () => {
    const matrix = nodeMatrix();
    const floor = [...matrix].sort((a, b) => Number.parseFloat(a) - Number.parseFloat(b))[0];
    expect(matrix).toContain("24");
    for (const { manifest } of packages) expect(manifest.engines, manifest.name).toEqual({ node: `>=${floor}` });
    expect(read(join(ROOT, "package.json")).engines).toEqual({ node: `>=${floor}` });
  });

  it("every peer range admits the version the tests run, and optional peers are declared peers", () => {
    for (const { dir, manifest } of packages) {
      for (const [name, range] of Object.entries<string>(manifest.peerDependencies ?? {})) {
        if (range.startsWith("workspace:")) continue;
        expect(satisfies(installedVersion(dir, name), range), `${manifest.name}: ${name}@${range}`).toBe(true);
      }
      for (const name of Object.keys(manifest.peerDependenciesMeta ?? {})) expect(manifest.peerDependencies, manifest.name).toHaveProperty(name);
    }
  });

  it("the ai peer range is exactly the default major plus the majors with a CI leg", () => {
    const aiSdk = packages.find((p) => p.folder === "ai-sdk")!;
    const legs = /for major in ([\d ]+); do/.exec(CI)![1].trim().split(/\s+/);
    const majors = [installedVersion(aiSdk.dir, "ai").split(".")[0], ...legs];
    expect(aiSdk.manifest.peerDependencies.ai).toBe(majors.map((m) => `^${m}.0.0`).join(" || "));
    for (const major of legs) expect(satisfies(installedVersion(aiSdk.dir, `ai-v${major}`), `^${major}.0.0`)).toBe(true);
  });

  it(".ci/run runs the packaging, install, API-report and unused-code checks and a dry-run publish, after the build", () => {
    const body = /^release_checks\(\) \{\n([\s\S]*?)\n\}$/m.exec(CI)?.[1] ?? "";
    for (const leg of ["check:packages", "check:install", "api:check", "check:unused", "publish -r --dry-run"]) expect(body).toContain(leg);
    const build = CI.indexOf('leg build "${PNPM[@]}" build');
    expect(build).toBeGreaterThan(0);
    // Started once the build is done, and awaited before the run ends.
    expect(CI.indexOf('background "release checks" release_checks')).toBeGreaterThan(build);
    expect(CI.indexOf("await_background", CI.indexOf('background "release checks" release_checks'))).toBeGreaterThan(0);
  });

  it("satisfies reads caret ranges as npm does", () => {
    expect(satisfies("1.16.1", "^1.14.10")).toBe(true);
    expect(satisfies("1.14.9", "^1.14.10")).toBe(false);
    expect(satisfies("2.0.0", "^1")).toBe(false);
    expect(satisfies("7.0.173", "^5.0.0 || ^6.0.0 || ^7.0.0")).toBe(true);
    expect(() => satisfies("1.0.0", ">=1")).toThrow("unsupported range");
  });
});
