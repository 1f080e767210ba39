#!/usr/bin/env node
// Package boundaries (ADR-003), checked on the imports of every packages/*/src file and on every
// packages/*/package.json: docs/architecture/spec/core.md#core-0, docs/architecture/spec/adapters.md#adapters-1-9, docs/architecture/spec/postgres.md#postgres-1 and docs/architecture/spec/postgres.md#postgres-9, docs/architecture/spec/distributed.md#distributed-1 and docs/architecture/spec/distributed.md#distributed-10 B3.
//
//   node scripts/check-boundaries.mjs [root]     root defaults to this repository
//
// It also checks the import graph inside packages (issue 44) with dependency-cruiser and the rules of
// .dependency-cruiser.cjs: no import circle in core, ai-sdk or mcp (type-only imports count), no import in core
// from a folder to one above it in the layer order (docs/architecture/packages.md, "Layers inside core"), and the
// MCP adapter's folders kept apart: v1/ private and free of the SDK v2, catalog/ on core alone
// (docs/architecture/packages.md, "Inside the MCP adapter").
//
// Exit 0 and "check:boundaries: ok (N files)" when clean; exit 1 listing `file:line [rule] message`
// per violation; exit 2 when the root cannot be checked at all.
import { cruise } from "dependency-cruiser";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
// `require` skips the ESM named-export scan of TypeScript's 9 MB bundle (about 0.4 s per run).
const ts = require("typescript");
const GRAPH_CONFIG = require("../.dependency-cruiser.cjs");
/** The packages whose import graph is checked, by path: their files may move, the rules stay. */
const GRAPH_PACKAGES = ["core", "ai-sdk", "mcp"];

const CORE = "@orpc-agent/core";
const ADAPTERS = ["@orpc-agent/ai-sdk", "@orpc-agent/mcp", "@orpc-agent/opentelemetry", "@orpc-agent/dbos"];
const SOURCE_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]);
const DEPENDENCY_FIELDS = ["dependencies", "peerDependencies", "optionalDependencies"];

// [pattern over the imported package name, what it is]
const AI = [/^ai$/, "the AI SDK"];
const AI_PROVIDER = [/^@ai-sdk\//, "an AI SDK provider"];
const MODEL_PROVIDER = [/^(openai|@anthropic-ai\/.+|@google\/genai|@google\/generative-ai|@mistralai\/.+)$/, "a model provider SDK"];
const MCP = [/^@modelcontextprotocol\//, "the MCP SDK"];
const OTEL = [/^@opentelemetry\//, "OpenTelemetry"];
const DBOS = [/^@dbos-inc\//, "the DBOS SDK"];
const DRIVER = [
  /^(pg|pg-.+|postgres|mysql|mysql2|sqlite3|better-sqlite3|mongodb|node:sqlite|@electric-sql\/.+|@neondatabase\/.+|@vercel\/postgres|@libsql\/.+|@planetscale\/.+)$/,
  "a database driver",
];
const OTHER_THAN_CORE = [/^@orpc-agent\/(?!core$)/, "an @orpc-agent package other than core"];
// Core and postgres: no model provider, protocol SDK, telemetry, driver or sibling package.
const NO_SDK_NO_DRIVER = [AI, AI_PROVIDER, MODEL_PROVIDER, MCP, OTEL, DBOS, DRIVER, OTHER_THAN_CORE];

/** What a package's `src` must not import: `{ rule, table, why }` per ban. */
function importBansOf(name) {
  const bans = [];
  if (name === CORE) bans.push({ rule: "core-imports", table: NO_SDK_NO_DRIVER, why: "core.md §0, ADR-003" });
  if (name === "@orpc-agent/postgres") bans.push({ rule: "postgres-imports", table: NO_SDK_NO_DRIVER, why: "postgres.md §1" });
  if (name === "@orpc-agent/testing") bans.push({ rule: "testing-imports", table: [AI, AI_PROVIDER, MCP], why: "adapters.md §1.9" });
  if (name === "@orpc-agent/dbos") bans.push({ rule: "dbos-imports", table: [DRIVER], why: "distributed.md §10 B3" });
  // Notify takes a PgQuery-shaped function for its outbox and core's types only (packages/notify/README.md).
  if (name === "@orpc-agent/notify") bans.push({ rule: "notify-imports", table: [DRIVER, OTHER_THAN_CORE], why: "issue 50: the PgQuery seam, core as the one peer" });
  if (ADAPTERS.includes(name)) bans.push({ rule: "adapter-imports-adapter", table: otherAdapters(name), why: "adapters.md §1.9" });
  return bans;
}

/** What a package's package.json must not list in dependencies, peerDependencies or optionalDependencies. */
function manifestBansOf(name) {
  const bans = [];
  if (name === CORE) bans.push({ rule: "core-manifest", table: NO_SDK_NO_DRIVER, why: "core.md §0" });
  if (name === "@orpc-agent/postgres") bans.push({ rule: "postgres-manifest", table: [DRIVER], why: "postgres.md §1, §9" });
  if (name === "@orpc-agent/notify") bans.push({ rule: "notify-manifest", table: [DRIVER, OTHER_THAN_CORE], why: "issue 50: the PgQuery seam, core as the one peer" });
  if (ADAPTERS.includes(name)) bans.push({ rule: "adapter-manifest", table: otherAdapters(name), why: "adapters.md §1.9" });
  return bans;
}

function otherAdapters(name) {
  const others = ADAPTERS.filter((adapter) => adapter !== name);
  return [[new RegExp(`^(${others.join("|")})$`), "another adapter"]];
}

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
const packagesDir = path.join(root, "packages");
if (!existsSync(packagesDir) || !statSync(packagesDir).isDirectory()) {
  console.error(`check:boundaries: no packages/ directory under ${root}`);
  process.exit(2);
}

const violations = [];
let fileCount = 0;

for (const dir of readdirSync(packagesDir).sort()) {
  const packageDir = path.join(packagesDir, dir);
  if (!statSync(packageDir).isDirectory()) continue;
  const manifest = readManifest(packageDir);
  const name = manifest?.json.name ?? `@orpc-agent/${dir}`;
  if (manifest) checkManifest(name, manifest);
  const srcDir = path.join(packageDir, "src");
  if (!existsSync(srcDir)) continue;
  for (const file of listSourceFiles(srcDir)) {
    fileCount++;
    for (const found of findImports(file)) checkImport(name, packageDir, file, found);
  }
}

await checkImportGraph();

if (violations.length > 0) {
  console.error(`check:boundaries: ${violations.length} violation(s) in ${fileCount} files`);
  for (const v of violations) console.error(`  ${v.file}:${v.line} [${v.rule}] ${v.message}`);
  process.exit(1);
}
console.log(`check:boundaries: ok (${fileCount} files)`);

function checkImport(packageName, packageDir, file, { specifier, line, typeOnly }) {
  const report = (rule, message) => violations.push({ file: relative(file), line, rule, message });
  const clientDir = path.join(packageDir, "src", "client");
  const inClient = packageName === CORE && isInside(clientDir, file);
  const clientRule = "client-type-only";

  if (specifier === undefined) {
    // A computed specifier cannot be checked; core/client must stay provably import-free.
    if (inClient) report(clientRule, "dynamic import with a computed specifier; core/client allows only `import type` / `export type` (distributed.md §1)");
    return;
  }

  if (specifier.startsWith(".")) {
    const target = path.resolve(path.dirname(file), specifier);
    if (!isInside(packageDir, target)) {
      report("relative-import-leaves-package", `"${specifier}" reaches outside ${packageName}; import a package by its name, where its boundary allows it`);
    } else if (inClient && !typeOnly && !isInside(clientDir, target)) {
      // Files inside core/client may import each other; nothing else at run time (docs/architecture/spec/distributed.md#distributed-1).
      report(clientRule, `runtime import of "${specifier}" leaves core/client; only \`import type\` / \`export type\` are allowed (distributed.md §1)`);
    }
    return;
  }

  if (inClient && !typeOnly) {
    report(clientRule, `runtime import of "${specifier}"; core/client allows only \`import type\` / \`export type\` (distributed.md §1)`);
  }
  // Type-only imports count too: a published .d.ts would still need the package.
  const target = packageNameOf(specifier);
  for (const { rule, table, why } of importBansOf(packageName)) {
    const what = matchBan(table, target);
    if (what) report(rule, `${packageName} imports "${specifier}" (${what}); its boundary forbids that (${why})`);
  }
}

function checkManifest(packageName, { file, text, json }) {
  const bans = manifestBansOf(packageName);
  for (const field of DEPENDENCY_FIELDS) {
    for (const dependency of Object.keys(json[field] ?? {})) {
      const report = (rule, message) => violations.push({ file: relative(file), line: lineOfKey(text, field, dependency), rule, message });
      for (const { rule, table, why } of bans) {
        const what = matchBan(table, dependency);
        if (what) report(rule, `${packageName} lists "${dependency}" (${what}) in ${field} (${why})`);
      }
      // One core instance per application, because converter state is module-level (docs/architecture/spec/core.md#core-0, docs/architecture/spec/core.md#core-13).
      if (packageName !== CORE && packageName.startsWith("@orpc-agent/") && dependency === CORE && field !== "peerDependencies") {
        report("core-is-a-peer", `${packageName} lists ${CORE} in ${field}; it must be a peer (and a devDependency for tests) (core.md §0)`);
      }
    }
  }
}

/** Every module reference in a file: static, re-export, dynamic `import()`, `require`, `getBuiltinModule`, `import("x")` types. */
function findImports(file) {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKindOf(file));
  const found = [];
  const add = (node, specifier, typeOnly) =>
    found.push({ specifier, typeOnly, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });

  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      // `import { type A } from "x"` stays a runtime `import {} from "x"` under verbatimModuleSyntax.
      add(node, literalText(node.moduleSpecifier), node.importClause?.isTypeOnly === true);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node, literalText(node.moduleSpecifier), node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, literalText(node.moduleReference.expression), node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, literalText(node.argument.literal), true);
    } else if (ts.isCallExpression(node) && isModuleCall(node)) {
      add(node, node.arguments.length > 0 ? literalText(node.arguments[0]) : undefined, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isModuleCall(call) {
  const callee = call.expression;
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isIdentifier(callee) && callee.text === "require") return call.arguments.length === 1;
  return ts.isPropertyAccessExpression(callee) && callee.name.text === "getBuiltinModule";
}

function literalText(node) {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
}

function scriptKindOf(file) {
  const ext = path.extname(file);
  if (ext === ".tsx") return ts.ScriptKind.TSX;
  if (ext === ".jsx") return ts.ScriptKind.JSX;
  if (ext === ".js" || ext === ".mjs" || ext === ".cjs") return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

function packageNameOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function matchBan(table, name) {
  for (const [pattern, what] of table) if (pattern.test(name)) return what;
  return undefined;
}

function listSourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "dist") files.push(...listSourceFiles(full));
    } else if (entry.isFile() && SOURCE_EXTENSIONS.has(path.extname(entry.name))) {
      files.push(full);
    }
  }
  return files;
}

function readManifest(packageDir) {
  const file = path.join(packageDir, "package.json");
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  try {
    return { file, text, json: JSON.parse(text) };
  } catch (error) {
    console.error(`check:boundaries: cannot parse ${relative(file)}: ${error.message}`);
    process.exit(2);
  }
}

function lineOfKey(text, field, key) {
  const start = Math.max(0, text.indexOf(`"${field}"`));
  const at = text.indexOf(`"${key}"`, start);
  return at < 0 ? 1 : text.slice(0, at).split("\n").length;
}

function isInside(dir, target) {
  const rel = path.relative(dir, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function relative(file) {
  return path.relative(root, file).split(path.sep).join("/");
}

/** Circles and upward imports, found by dependency-cruiser, reported like every other violation. */
async function checkImportGraph() {
  const roots = GRAPH_PACKAGES.map((name) => `packages/${name}/src`).filter((dir) => existsSync(path.join(root, dir)));
  if (roots.length === 0) return;
  const { output } = await cruise(roots, { ...GRAPH_CONFIG.options, baseDir: root, ruleSet: { forbidden: GRAPH_CONFIG.forbidden }, validate: true });
  const layers = coreLayers();
  const circles = new Set();
  for (const v of output.summary.violations) {
    if (v.rule.name === "import-circle") {
      const loop = [v.from, ...v.cycle.map((step) => step.name)];
      // dependency-cruiser reports a circle once per module on it; name it once, from its first module in order.
      const key = [...loop.slice(1)].sort().join("\n");
      if (circles.has(key)) continue;
      circles.add(key);
      violations.push({
        file: v.from,
        line: importLine(v.from, loop[1]),
        rule: "import-circle",
        message: `modules import each other around a loop: ${loop.join(" → ")}; move what they share to where each can import it`,
      });
    } else if (v.rule.name === "core-layers") {
      const from = coreFolderOf(v.from);
      const to = coreFolderOf(v.to);
      const message = !layers.includes(from) || (to !== undefined && !layers.includes(to))
        ? `${v.from} → ${v.to}: ${layers.includes(from) ? to : from}/ has no place in core's layer order (CORE_LAYERS in .dependency-cruiser.cjs)`
        : `${from}/ imports ${v.to}, above it in core's layer order (${layers.join(" < ")}); ` +
          "move what both need down to where it belongs (docs/architecture/packages.md)";
      violations.push({ file: v.from, line: importLine(v.from, v.to), rule: "core-layers", message });
    } else if (v.type === "module") {
      // A `reachable` rule: the module reaches a forbidden one, maybe through others; name the whole path.
      const rule = ruleOf(v.rule.name, true);
      const chain = reachingPath(output.modules, v.from, new RegExp(rule?.to?.path ?? "$^")) ?? [v.from];
      const named = chain.map((module, index) => (index === chain.length - 1 ? bareNameOf(output.modules, chain[index - 1], module) : module));
      violations.push({ file: v.from, line: importLine(v.from, chain[1] ?? v.to), rule: v.rule.name, message: `${named.join(" → ")}: ${rule?.comment ?? ""}` });
    } else {
      const rule = ruleOf(v.rule.name, false);
      const target = v.unresolvedTo !== undefined && !v.unresolvedTo.startsWith(".") ? v.unresolvedTo : v.to;
      violations.push({ file: v.from, line: importLine(v.from, v.to, v.unresolvedTo), rule: v.rule.name, message: `${v.from} imports ${target}: ${rule?.comment ?? ""}` });
    }
  }
}

/** The rule of .dependency-cruiser.cjs a violation names: its `reachable` form, or its direct one. */
function ruleOf(name, reachable) {
  return GRAPH_CONFIG.forbidden.find((rule) => rule.name === name && (rule.to?.reachable === true) === reachable);
}

/** The shortest import path from `from` to a module whose path matches `target`, as module paths; undefined if none. */
function reachingPath(modules, from, target) {
  const byName = new Map(modules.map((module) => [module.source, module]));
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const dependency of byName.get(current)?.dependencies ?? []) {
      const next = dependency.resolved;
      if (previous.has(next)) continue;
      previous.set(next, current);
      if (target.test(next)) {
        const chain = [next];
        for (let step = current; step !== undefined; step = previous.get(step)) chain.unshift(step);
        return chain;
      }
      queue.push(next);
    }
  }
  return undefined;
}

/** How `importer` names a package it imports (`@scope/name/...` as written), else the resolved path. */
function bareNameOf(modules, importer, resolved) {
  const dependency = modules.find((module) => module.source === importer)?.dependencies.find((d) => d.resolved === resolved);
  return dependency !== undefined && !dependency.module.startsWith(".") ? dependency.module : resolved;
}

/** The layer order, read back from the per-layer rules of .dependency-cruiser.cjs (one `from` folder each). */
function coreLayers() {
  const layers = [];
  for (const rule of GRAPH_CONFIG.forbidden) {
    const folder = /^\^packages\/core\/src\/\((\w[\w-]*)\)\/$/.exec(rule.from?.path ?? "")?.[1];
    if (rule.name === "core-layers" && folder !== undefined) layers.push(folder);
  }
  return layers;
}

/** `packages/core/src/<folder>/…` → folder; undefined for the entry files at the root of src and for other packages. */
function coreFolderOf(file) {
  return /^packages\/core\/src\/([^/]+)\//.exec(file)?.[1];
}

/**
 * The line of `from` whose import resolves to `to` (both relative to the root), or that imports the package specifier
 * `written` (as dependency-cruiser read it), or 1 when none is found.
 */
function importLine(from, to, written) {
  const file = path.join(root, from);
  if (!existsSync(file)) return 1;
  for (const { specifier, line } of findImports(file)) {
    if (specifier !== undefined && specifier === written) return line;
    if (specifier === undefined || !specifier.startsWith(".")) continue;
    const base = path.resolve(path.dirname(file), specifier);
    const stem = base.replace(/\.[cm]?jsx?$/, "");
    const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`, path.join(base, "index.ts")];
    if (candidates.some((candidate) => relative(candidate) === to)) return line;
  }
  return 1;
}

