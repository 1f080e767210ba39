// Vitest globalSetup for the cli project: the end-to-end tests run the built binary, and its loader child
// resolves @orpc-agent/core through package exports to packages/core/dist. Build both once (skipped when
// dist is newer than every source file), and make @orpc-agent/core resolvable from the fixture apps.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { resolvePackageEntry } from "../src/load/resolve-package.js";

const packages = fileURLToPath(new URL("../../", import.meta.url));
const fixtures = fileURLToPath(new URL("../../../test-fixtures/cli-apps/", import.meta.url));

export default function setup(): void {
  buildIfStale(join(packages, "core"));
  buildIfStale(join(packages, "cli"));
  linkCoreForFixtures();
}

function buildIfStale(packageDir: string): void {
  const output = join(packageDir, "dist", "index.js");
  if (existsSync(output) && newestSource(packageDir) < statSync(output).mtimeMs) return;
  try {
    execFileSync("npx", ["tsup"], { cwd: packageDir, stdio: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`building ${packageDir} failed:\n${stdout?.toString() ?? ""}${stderr?.toString() ?? ""}`);
  }
}

function newestSource(packageDir: string): number {
  const files = [join(packageDir, "package.json"), join(packageDir, "tsup.config.ts"), ...walk(join(packageDir, "src"))];
  return Math.max(...files.filter((file) => existsSync(file)).map((file) => statSync(file).mtimeMs));
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

// test-fixtures is not a dependant of core; a link in the fixtures' own node_modules stands in for one.
function linkCoreForFixtures(): void {
  if (resolvePackageEntry(fixtures, "@orpc-agent/core") !== undefined) return;
  const link = join(fixtures, "node_modules", "@orpc-agent", "core");
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(relative(dirname(link), join(packages, "core")), link, "dir");
}
