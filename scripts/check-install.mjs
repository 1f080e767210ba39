// Install check (issue 33): the packed tarballs installed with npm into a scratch app outside the workspace,
// every entry point imported under Node 24 and the engines floor (20.19), and its types compiled under
// moduleResolution NodeNext and Bundler. Peers come from the registry at the versions the workspace tests run.
//   node scripts/check-install.mjs [--packs DIR] [--floor]   (DIR: tarballs from `check-packages.mjs --out DIR`;
//   --floor: peers at the lowest published version of each range instead)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { packAll, tarballName } from "./check-packages.mjs";
import { publishedPackages } from "./published-packages.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const NODE_VERSIONS = ["24", "20.19"];
const sh = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

/** The version of `name` that `from` resolves in the workspace, walking up node_modules. */
function workspaceVersion(from, name) {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, "node_modules", name, "package.json");
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")).version;
  }
  throw new Error(`${name} is not installed in the workspace above ${from}`);
}

const FLOOR = process.argv.includes("--floor");
/** The lowest published, non-prerelease version in `range` (`^1` may start above 1.0.0). */
function lowestPublished(name, range) {
  const listed = JSON.parse(sh("npm", ["view", `${name}@${range}`, "version", "--json"], ROOT));
  return [listed].flat().find((version) => !version.includes("-"));
}

const at = process.argv.indexOf("--packs");
const packs = at > 0 ? resolve(process.argv[at + 1]) : mkdtempSync(join(tmpdir(), "orpc-agent-packs-"));
if (at < 0) packAll(packs);
const packages = publishedPackages(ROOT);

const dependencies = {};
for (const pkg of packages) {
  dependencies[pkg.name] = `file:${join(packs, tarballName(pkg.manifest))}`;
  for (const [name, range] of Object.entries(pkg.manifest.peerDependencies ?? {})) {
    if (range.startsWith("workspace:")) continue;
    // --floor: each peer at the lowest published version its range admits, the other end of the range.
    dependencies[name] ??= FLOOR ? lowestPublished(name, range) : workspaceVersion(pkg.dir, name);
  }
}
// The schema library behind the optional @valibot/to-json-schema peer, and Node's types for the compile.
dependencies.valibot = workspaceVersion(ROOT, "valibot");
dependencies["@types/node"] = workspaceVersion(ROOT, "@types/node");

console.log(`peers${FLOOR ? " (range floors)" : ""}: ${Object.entries(dependencies).filter(([, v]) => !v.startsWith("file:")).map(([n, v]) => `${n}@${v}`).join(", ")}`);
const app = mkdtempSync(join(tmpdir(), "orpc-agent-install-"));
writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch-app", private: true, type: "module", dependencies }, null, 2));
let start = Date.now();
sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], app);
console.log(`installed ${packages.length} tarballs and ${Object.keys(dependencies).length - packages.length} peers in ${app} (${Date.now() - start} ms)`);

const specifiers = packages.flatMap((pkg) => pkg.entries.map((entry) => entry.specifier));
writeFileSync(
  join(app, "import-all.mjs"),
  `const specifiers = ${JSON.stringify(specifiers)};\nfor (const s of specifiers) {\n  const m = await import(s);\n  if (Object.keys(m).length === 0) throw new Error(s + " exports nothing");\n}\nconsole.log(process.version + ": imported " + specifiers.length + " entry points");\n`,
);
for (const version of NODE_VERSIONS) {
  const node = sh("sh", [join(ROOT, "scripts/install-node.sh"), version], ROOT).trim();
  process.stdout.write(sh(node, ["import-all.mjs"], app));
}

writeFileSync(join(app, "check.ts"), specifiers.map((s, i) => `import * as e${i} from "${s}";\nvoid e${i};`).join("\n") + "\n");
const compilerOptions = { strict: true, noEmit: true, target: "ES2022", lib: ["ES2023", "DOM"], types: ["node"], skipLibCheck: false };
const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
for (const [name, resolution] of [["NodeNext", { module: "NodeNext", moduleResolution: "NodeNext" }], ["Bundler", { module: "ESNext", moduleResolution: "Bundler" }]]) {
  writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: { ...compilerOptions, ...resolution }, files: ["check.ts"] }));
  start = Date.now();
  const compiled = spawnSync(process.execPath, [tsc, "-p", `tsconfig.${name}.json`], { cwd: app, encoding: "utf8" });
  // Library checking on, so our declarations are compiled; only errors in them or in check.ts count, since a
  // peer's own declarations (ai@5's provider wants @types/json-schema) are not ours to fix.
  const errors = compiled.stdout.split("\n").filter((line) => /^[^\s].*\(\d+,\d+\): error /.test(line));
  const ours = errors.filter((line) => line.startsWith("check.ts") || line.startsWith("node_modules/@orpc-agent/"));
  if (compiled.status !== 0 && (ours.length > 0 || errors.length === 0)) {
    console.error(`moduleResolution ${name}:\n${ours.length > 0 ? ours.join("\n") : compiled.stdout + compiled.stderr}`);
    process.exit(1);
  }
  console.log(`types of ${specifiers.length} entry points compile under moduleResolution ${name} (${errors.length} error(s) in peers' own declarations ignored; ${Date.now() - start} ms)`);
}
