// Packaging check (issue 33): pack every published package as pnpm publishes it, then lint each tarball with
// publint (strict: warnings fail) and @arethetypeswrong/cli (ESM-only profile). Run after the build.
//   node scripts/check-packages.mjs [--out DIR]   keeps the tarballs in DIR (the install check reuses them)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { publishedPackages } from "./published-packages.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "node_modules/.bin");
const PNPM = ["-y", "pnpm@10.34.9"];

function run(command, args, cwd) {
  // Plain text whatever the terminal or CI says: reports are read and matched, not shown in colour.
  const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" };
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  // eslint-disable-next-line no-control-regex
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.replace(/\u001b\[[0-9;]*m/g, "") };
}

/** Packs every workspace package under packages/ into `out`, as pnpm publishes them (publishConfig applied). */
export function packAll(out) {
  // One recursive pack: a pnpm start per package costs seconds each.
  const packed = run("npx", [...PNPM, "-r", "--filter", "./packages/*", "pack", "--pack-destination", out], ROOT);
  if (!packed.ok) throw new Error(`pnpm pack failed:\n${packed.output}`);
}

/** The file name pnpm gives a package's tarball: `@scope/name@1.2.3` → `scope-name-1.2.3.tgz`. */
export function tarballName(manifest) {
  return `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`;
}

/**
 * Export targets the tarball does not contain, under any condition. publint checks only the conditions it knows,
 * so a custom one (the `@orpc-agent/source` → `./src/index.ts` slip) passes it.
 */
export function missingExportTargets(tarball) {
  const files = new Set(run("tar", ["-tzf", tarball], ROOT).output.split("\n").map((line) => line.replace(/^package\//, "")));
  const manifest = JSON.parse(run("tar", ["-xzOf", tarball, "package/package.json"], ROOT).output);
  const missing = [];
  const walk = (target, path) => {
    if (typeof target === "string") {
      if (!files.has(target.replace(/^\.\//, ""))) missing.push(`${path}: ${target}`);
    } else if (target !== null && typeof target === "object") {
      for (const [key, value] of Object.entries(target)) walk(value, `${path}[${JSON.stringify(key)}]`);
    }
  };
  walk(manifest.exports, "exports");
  return missing;
}

/** Export targets, publint --strict and attw --profile esm-only on one tarball; empty when all pass. */
export function lintTarball(tarball) {
  const problems = [];
  const missing = missingExportTargets(tarball);
  if (missing.length > 0) problems.push(`exports name files the tarball does not contain:\n${missing.join("\n")}`);
  const publint = run(join(BIN, "publint"), ["run", "--strict", tarball], ROOT);
  if (!publint.ok) problems.push(`publint --strict:\n${publint.output}`);
  const attw = run(join(BIN, "attw"), ["--profile", "esm-only", "--format", "ascii", "--no-color", tarball], ROOT);
  if (!attw.ok) problems.push(`attw --profile esm-only:\n${attw.output}`);
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--out");
  const out = at > 0 ? resolve(process.argv[at + 1]) : mkdtempSync(join(tmpdir(), "orpc-agent-packs-"));
  mkdirSync(out, { recursive: true });
  packAll(out);
  let failed = 0;
  for (const pkg of publishedPackages(ROOT)) {
    const tarball = join(out, tarballName(pkg.manifest));
    const problems = lintTarball(tarball);
    failed += problems.length > 0 ? 1 : 0;
    console.log(problems.length === 0 ? `ok ${pkg.name}` : `FAIL ${pkg.name}\n${problems.join("\n")}`);
  }
  console.log(`tarballs in ${out}`);
  if (failed > 0) {
    console.error(`${failed} package(s) failed the packaging check`);
    process.exit(1);
  }
}
