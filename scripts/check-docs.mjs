#!/usr/bin/env node
// Checks the documentation site in docs/ against the code, so that the guide cannot drift from what it describes.
//
//   node scripts/check-docs.mjs [root] [--write] [--built]     root defaults to this repository
//
// `pnpm docs:build` runs `vitepress build`, then this script with `--built`. Exit 0 and
// "check:docs: ok (…)" when every check passes; exit 1 listing `file:line problem` per problem; exit 2 when the
// root has no docs/index.md.
//
// What is checked, on the Markdown sources (every docs/**/*.md except docs/README.md):
//   links     relative links to pages (`./x.md`, `../guide/x`, `/reference/core`), with their `#anchor`s computed
//             the way VitePress slugifies headings, and `#anchor`s within a page. `repo:<path>` links name files of
//             the repository (tests, sources); the site renders them against DOCS_REPOSITORY_URL.
//   snippets  every ```ts block typechecks, through scripts/check-readme-snippets.mjs (same directives). A docs
//             snippet resolves bare imports from its own folder, then from each workspace package, so
//             `@orpc-agent/*` resolves to sources through the `@orpc-agent/source` condition.
//   generated blocks between `<!-- generated: NAME -->` and `<!-- /generated -->` must equal what NAME produces
//             from the sources (the error-code table from packages/core/src/errors/codes.ts, the audit event
//             catalog from packages/core/src/audit/types.ts, the runtime defaults, the SI test index). `--write`
//             rewrites them. A generator whose source exists must be used somewhere in the docs.
//   name sets `<!-- names: SET -->` before a table (or before each of several tables, read together): their first
//             column (backticked names) must list exactly the members of SET, e.g. `exports:@orpc-agent/core` (every public export of that entry point, read from
//             the package's `@orpc-agent/source` entry file; a `Kind` column must match too), `error-codes`,
//             `audit-events`. Every entry point of every package needs one exports table.
//   commands  every pnpm command in a shell fence or inline code span, on the pages and the READMEs, reaches a script
//             (scripts/documented-commands.mjs): a `--filter` that matches no project fails, as does an unknown script.
//   --built   also: every page was rendered to docs/.vitepress/dist, and each checked #anchor exists there.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkMarkdownSnippets } from "./check-readme-snippets.mjs";
import { checkDocumentedCommands } from "./documented-commands.mjs";

const ts = createRequire(import.meta.url)("typescript");

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith("--")));
for (const flag of flags) {
  if (flag !== "--write" && flag !== "--built") {
    console.error(`check:docs: unknown flag ${flag} (expected --write or --built)`);
    process.exit(2);
  }
}
const positional = args.filter((a) => !a.startsWith("--"));
const root = path.resolve(positional[0] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
const docsDir = path.join(root, "docs");
if (!existsSync(path.join(docsDir, "index.md"))) {
  console.error(`check:docs: no docs/index.md under ${root}`);
  process.exit(2);
}

/** Markdown in docs/ that is not a page of the site (VitePress `srcExclude` says the same). */
const EXCLUDED = new Set(["README.md"]);

const problems = [];
let pages = [];
let byFile = new Map();

// ---------------------------------------------------------------------------------------------------------------
// Pages

function listPages() {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".md") && !(dir === docsDir && EXCLUDED.has(name))) found.push(full);
    }
  };
  walk(docsDir);
  return found;
}

/**
 * One page: its lines, the anchors its headings produce, its links, and its markers. Fenced code and inline code
 * are skipped for links, headings and markers.
 */
function readPage(file) {
  const text = readFileSync(file, "utf8");
  const lines = text.split(/\r?\n/);
  const page = { file, rel: relative(file), lines, anchors: new Set(), links: [], markers: [] };
  const taken = new Set();
  let fence = undefined;
  let start = 0;
  if (lines[0] === "---") {
    const end = lines.indexOf("---", 1);
    if (end > 0) start = end + 1;
  }
  for (let i = start; i < lines.length; i++) {
    const line = lines[i];
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length && line.trim() === fenceMatch[1]) fence = undefined;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      continue;
    }
    const marker = /^<!--\s*(generated|names):\s*(\S+)\s*-->\s*$/.exec(line);
    if (marker) page.markers.push({ kind: marker[1], name: marker[2], line: i });
    if (/^<!--\s*\/generated\s*-->\s*$/.test(line)) page.markers.push({ kind: "end", name: "", line: i });

    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const { id, text: title } = headingText(heading[2]);
      page.anchors.add(id === undefined ? uniqueSlug(slugify(title), taken) : (taken.add(id), id));
    }
    for (const id of line.matchAll(/\sid="([^"]+)"/g)) page.anchors.add(id[1]);

    const prose = line.replace(/(`+)[^`]*?\1/g, (m) => " ".repeat(m.length));
    for (const m of prose.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) page.links.push({ target: m[1], line: i + 1 });
    for (const m of prose.matchAll(/\shref="([^"]+)"/g)) page.links.push({ target: m[1], line: i + 1 });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(prose);
    if (definition) page.links.push({ target: definition[1], line: i + 1 });
  }
  if (fence) problems.push(`${page.rel} a code fence is never closed`);
  return page;
}

/** The text VitePress slugs: markdown-it's text and inline-code tokens of the heading, so link targets and HTML drop out. */
function headingText(raw) {
  let id;
  let text = raw.replace(/\s*\{#([^}\s]+)\}\s*$/, (_, custom) => {
    id = custom;
    return "";
  });
  const codes = [];
  text = text.replace(/(`+)([^`]*?)\1/g, (_, __, code) => `\u0000${codes.push(code.trim()) - 1}\u0000`);
  text = text
    .replace(/!\[(?:[^\]\\]|\\.)*\]\([^)]*\)/g, "")
    .replace(/\[((?:[^\]\\]|\\.)*)\]\([^)]*\)/g, "$1")
    .replace(/<\/?[A-Za-z][^>]*>/g, "")
    .replace(/\\([!-/:-@[-`{-~])/g, "$1")
    .replace(/\u0000(\d+)\u0000/g, (_, n) => codes[Number(n)]);
  return { id, text };
}

// VitePress 1.x (its @mdit-vue slugify), verbatim.
const rControl = /[\u0000-\u001f]/g;
const rSpecial = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g;
const rCombining = /[\u0300-\u036F]/g;
function slugify(str) {
  return str
    .normalize("NFKD")
    .replace(rCombining, "")
    .replace(rControl, "")
    .replace(rSpecial, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .replace(/^(\d)/, "_$1")
    .toLowerCase();
}

/** markdown-it-anchor's de-duplication: a second `foo` becomes `foo-1`, a third `foo-2`. */
function uniqueSlug(slug, taken) {
  let candidate = slug;
  for (let i = 1; taken.has(candidate); i++) candidate = `${slug}-${i}`;
  taken.add(candidate);
  return candidate;
}

// ---------------------------------------------------------------------------------------------------------------
// Links

function checkLinks() {
  let count = 0;
  for (const page of pages) {
    for (const { target, line } of page.links) {
      const where = `${page.rel}:${line}`;
      if (/^(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(target) || /^(mailto|tel|https?):/i.test(target)) continue;
      count++;
      if (target.startsWith("repo:")) {
        const file = target.slice("repo:".length).replace(/#.*$/, "");
        if (file === "" || !isInside(root, path.join(root, file)) || !existsSync(path.join(root, file))) {
          problems.push(`${where} link to ${target}: no such file in the repository`);
        }
        continue;
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        problems.push(`${where} link ${target}: unsupported scheme (use a relative page link, repo:<path> or an absolute URL)`);
        continue;
      }
      const hash = target.indexOf("#");
      const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved = pathPart === "" ? page : resolvePage(page, pathPart);
      if (typeof resolved === "string") {
        problems.push(`${where} link ${target}: ${resolved}`);
        continue;
      }
      if (resolved === null) continue; // an existing asset
      if (anchor !== undefined && anchor !== "" && !resolved.anchors.has(anchor)) {
        problems.push(`${where} link ${target}: no heading with anchor #${anchor} in ${resolved.rel}`);
        continue;
      }
      if (anchor) (resolved.checkedAnchors ??= new Set()).add(anchor);
    }
  }
  return count;
}

/** The page a link names, `null` for an existing non-page file, or a string saying what is wrong. */
function resolvePage(page, target) {
  const base = target.startsWith("/") ? path.join(docsDir, target) : path.resolve(path.dirname(page.file), target);
  if (!isInside(docsDir, base)) return "points outside docs/ (use repo:<path> for repository files)";
  const candidates = [];
  if (target.endsWith("/")) candidates.push(path.join(base, "index.md"));
  else if (base.endsWith(".md")) candidates.push(base);
  else if (base.endsWith(".html")) candidates.push(base.slice(0, -".html".length) + ".md");
  else candidates.push(`${base}.md`, path.join(base, "index.md"));
  for (const candidate of candidates) {
    const found = byFile.get(candidate);
    if (found) return found;
  }
  if (!target.endsWith("/") && !base.endsWith(".md") && existsSync(base) && statSync(base).isFile()) return null;
  return `no page ${relative(candidates[0])}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Generated blocks

function generators() {
  return {
    "error-codes": { source: "packages/core/src/errors/codes.ts", make: errorCodeTable },
    "audit-events": { source: "packages/core/src/audit/types.ts", make: auditEventTable },
    "audit-envelope": { source: "packages/core/src/audit/types.ts", make: auditEnvelopeTable },
    "runtime-defaults": { source: "packages/core/src/runtime/create-runtime.ts", make: runtimeDefaultsTable },
    "si-tests": { source: "packages", make: securityTestIndex },
  };
}

function checkGenerated() {
  const all = generators();
  const used = new Set();
  const cache = new Map();
  let count = 0;
  for (const page of pages) {
    let changed = false;
    const blocks = [];
    for (let i = 0; i < page.markers.length; i++) {
      const marker = page.markers[i];
      if (marker.kind !== "generated") continue;
      const end = page.markers[i + 1];
      if (!end || end.kind !== "end") {
        problems.push(`${page.rel}:${marker.line + 1} generated block "${marker.name}" has no <!-- /generated --> after it`);
        continue;
      }
      blocks.push({ name: marker.name, from: marker.line + 1, to: end.line });
    }
    // Replace from the bottom so earlier line numbers stay valid.
    for (const block of blocks.reverse()) {
      const generator = all[block.name];
      const where = `${page.rel}:${block.from}`;
      if (!generator) {
        problems.push(`${where} unknown generated block "${block.name}" (known: ${Object.keys(all).join(", ")})`);
        continue;
      }
      if (!existsSync(path.join(root, generator.source))) {
        problems.push(`${where} generated block "${block.name}": its source ${generator.source} does not exist`);
        continue;
      }
      used.add(block.name);
      count++;
      if (!cache.has(block.name)) cache.set(block.name, generator.make());
      const expected = cache.get(block.name).split("\n");
      const actual = page.lines.slice(block.from, block.to);
      if (expected.join("\n") === actual.join("\n")) continue;
      if (flags.has("--write")) {
        page.lines.splice(block.from, block.to - block.from, ...expected);
        changed = true;
      } else {
        const first = expected.findIndex((l, j) => l !== actual[j]);
        problems.push(
          `${page.rel}:${block.from + 1 + Math.max(first, 0)} generated block "${block.name}" differs from ${generator.source} ` +
            `(expected: ${JSON.stringify(expected[first] ?? "<end of block>")}); run node scripts/check-docs.mjs --write`,
        );
      }
    }
    if (changed) {
      writeFileSync(page.file, page.lines.join("\n"));
      console.log(`check:docs: updated generated blocks in ${page.rel}`);
    }
  }
  for (const [name, generator] of Object.entries(all)) {
    if (!used.has(name) && existsSync(path.join(root, generator.source))) {
      problems.push(`docs: no page has the generated block "${name}" (<!-- generated: ${name} --> … <!-- /generated -->) for ${generator.source}`);
    }
  }
  return count;
}

function parseSource(rel) {
  return ts.createSourceFile(rel, readFileSync(path.join(root, rel), "utf8"), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

function findVariable(source, name) {
  let found;
  source.forEachChild(function visit(node) {
    if (found) return;
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name) found = node;
    else node.forEachChild(visit);
  });
  if (!found) throw new Error(`${source.fileName}: no declaration of ${name}`);
  return found;
}

/** The module a relative `import { name }` in `source` names, parsed; undefined when `name` is not imported. */
function importedFrom(source, name) {
  for (const statement of source.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (!bindings || !ts.isNamedImports(bindings) || !bindings.elements.some((e) => e.name.text === name)) continue;
    const specifier = statement.moduleSpecifier.text;
    if (!specifier.startsWith(".")) return undefined;
    return parseSource(path.posix.join(path.posix.dirname(source.fileName), specifier.replace(/\.js$/, ".ts")));
  }
  return undefined;
}

function findTypeAlias(source, name) {
  const found = source.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === name);
  if (!found) throw new Error(`${source.fileName}: no type ${name}`);
  return found;
}

/** An object literal under `Object.freeze(…)` and `as …` wrappers. */
function objectLiteralOf(expression) {
  let node = expression;
  while (node && !ts.isObjectLiteralExpression(node)) {
    if (ts.isCallExpression(node)) node = node.arguments[0];
    else if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) node = node.expression;
    else return undefined;
  }
  return node;
}

function propertyName(node) {
  return ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : node.name.getText();
}

/** A literal value in the source: strings, numbers, booleans, and identifiers bound to a string constant. */
function literalValue(node, source) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text.replace(/_/g, ""));
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isIdentifier(node)) {
    const imported = importedFrom(source, node.text);
    if (imported) return literalValue(findVariable(imported, node.text).initializer, imported);
    return literalValue(findVariable(source, node.text).initializer, source);
  }
  throw new Error(`${source.fileName}: cannot read the value ${node.getText()}`);
}

function errorCodeTable() {
  const source = parseSource("packages/core/src/errors/codes.ts");
  const table = objectLiteralOf(findVariable(source, "ERROR_CODE_DEFAULTS").initializer);
  const rows = ["| Code | Default stage | Retryable | Shown to models | Default public message |", "|---|---|---|---|---|"];
  for (const property of table.properties) {
    const fields = Object.fromEntries(objectLiteralOf(property.initializer).properties.map((p) => [propertyName(p), literalValue(p.initializer, source)]));
    const yes = (v) => (v ? "yes" : "no");
    rows.push(`| \`${propertyName(property)}\` | \`${fields.stage}\` | ${yes(fields.retryable)} | ${yes(fields.exposeToModel)} | ${cell(fields.message)} |`);
  }
  return rows.join("\n");
}

function auditEventTable() {
  const source = parseSource("packages/core/src/audit/types.ts");
  const data = findTypeAlias(source, "AuditEventData").type;
  const rows = ["| Event type | `data` |", "|---|---|"];
  for (const member of data.members) rows.push(`| \`${propertyName(member)}\` | ${code(typeText(member.type))} |`);
  return rows.join("\n");
}

function auditEnvelopeTable() {
  const source = parseSource("packages/core/src/audit/types.ts");
  const envelope = findTypeAlias(source, "AuditEnvelope").type;
  const rows = ["| Field | Type |", "|---|---|"];
  for (const member of envelope.members) {
    const optional = member.questionToken ? " (optional)" : "";
    // The envelope is generic over the event type; name what the parameter stands for.
    const text = typeText(member.type);
    const shown = text === "T" ? code("AgentAuditEventType") : text.startsWith("AuditEventData[") ? "the type's `data`, below" : code(text);
    rows.push(`| \`${propertyName(member)}\`${optional} | ${shown} |`);
  }
  return rows.join("\n");
}

function runtimeDefaultsTable() {
  const source = parseSource("packages/core/src/runtime/create-runtime.ts");
  const defaults = objectLiteralOf(findVariable(source, "DEFAULTS").initializer);
  const rows = ["| Option | Default |", "|---|---|"];
  for (const property of defaults.properties) {
    const value = literalValue(property.initializer, source);
    const name = propertyName(property);
    const readable = typeof value === "number" && name.endsWith("Ms") ? ` (${formatMs(value)})` : "";
    rows.push(`| \`defaults.${name}\` | \`${property.initializer.getText()}\`${readable} |`);
  }
  return rows.join("\n");
}

function formatMs(value) {
  return value % 60_000 === 0 ? `${value / 60_000} min` : `${value / 1000} s`;
}

/** Each invariant and the test files whose test names carry its tag (`"SI-3: …"`). */
function securityTestIndex() {
  const tagged = new Map();
  const walk = (dir, inTests) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full, inTests || name === "test" || name === "tests" || name === "test-fixtures");
      else if (inTests && /\.tsx?$/.test(name)) {
        for (const m of readFileSync(full, "utf8").matchAll(/["'`]SI-(\d+):/g)) {
          const n = Number(m[1]);
          if (!tagged.has(n)) tagged.set(n, new Set());
          tagged.get(n).add(relative(full));
        }
      }
    }
  };
  for (const group of ["packages", "examples", "tests", "test-fixtures"]) {
    if (existsSync(path.join(root, group))) walk(path.join(root, group), group === "tests" || group === "test-fixtures");
  }
  const rows = ["| Invariant | Test files (test names tagged `SI-n:`) |", "|---|---|"];
  for (const n of [...tagged.keys()].sort((a, b) => a - b)) {
    const files = [...tagged.get(n)].sort().map((f) => `[${f}](repo:${f})`);
    rows.push(`| [SI-${n}](#si-${n}) | ${files.join("<br>")} |`);
  }
  return rows.join("\n");
}

function typeText(node) {
  return node.getText().replace(/\s+/g, " ").replace(/;\s*}/g, " }").replace(/;/g, ",");
}

/** Inline code in a table cell: pipes escaped for the table. */
function code(text) {
  return `\`${text.replace(/\|/g, "\\|")}\``;
}

function cell(text) {
  return text.replace(/\|/g, "\\|");
}

// ---------------------------------------------------------------------------------------------------------------
// Name sets: tables that must list exactly the members of a set read from the code

function listEntryPoints() {
  const entries = [];
  const packagesDir = path.join(root, "packages");
  if (!existsSync(packagesDir)) return entries;
  for (const name of readdirSync(packagesDir).sort()) {
    const manifestPath = path.join(packagesDir, name, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    for (const [subpath, conditions] of Object.entries(manifest.exports ?? {})) {
      const sourceEntry = typeof conditions === "object" && conditions !== null ? conditions["@orpc-agent/source"] : undefined;
      if (typeof sourceEntry !== "string") continue;
      const file = path.join(packagesDir, name, sourceEntry);
      const specifier = subpath === "." ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, "")}`;
      entries.push({ specifier, file, exists: existsSync(file) });
    }
  }
  return entries;
}

/** Exports of each existing entry point: name → kind (function, class, constant or type). */
function readExports(entries) {
  const existing = entries.filter((e) => e.exists);
  if (existing.length === 0) return new Map();
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ["@orpc-agent/source"],
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const program = ts.createProgram({ rootNames: existing.map((e) => e.file), options });
  const checker = program.getTypeChecker();
  const result = new Map();
  for (const entry of existing) {
    const source = program.getSourceFile(entry.file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    const exports = new Map();
    for (const symbol of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const declaration = symbol.declarations?.[0];
      const typeOnly = declaration !== undefined && ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly);
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      let kind = "type";
      if (!typeOnly) {
        if (target.flags & ts.SymbolFlags.Class) kind = "class";
        else if (target.flags & ts.SymbolFlags.Function) kind = "function";
        else if (target.flags & ts.SymbolFlags.Variable) {
          // A const holding a function is documented as a function.
          const type = target.valueDeclaration ? checker.getTypeOfSymbolAtLocation(target, target.valueDeclaration) : undefined;
          kind = type && type.getCallSignatures().length > 0 ? "function" : "constant";
        }
      }
      exports.set(symbol.name, kind);
    }
    result.set(entry.specifier, exports);
  }
  return result;
}

function checkNameSets(entries) {
  // Tables under the same marker (one per section of a page, say) are read together as one list.
  const groups = new Map();
  for (const page of pages) {
    for (const marker of page.markers) {
      if (marker.kind !== "names") continue;
      if (!groups.has(marker.name)) groups.set(marker.name, []);
      groups.get(marker.name).push({ page, marker });
    }
  }
  const exportsBySpecifier = entries.some((e) => e.exists) ? readExports(entries) : new Map();
  let tableCount = 0;

  for (const [name, tables] of groups) {
    const first = tables[0];
    const expected = expectedNameSet(name, entries, exportsBySpecifier, `${first.page.rel}:${first.marker.line + 1}`);
    if (!expected) continue;
    const listed = new Map();
    for (const { page, marker } of tables) {
      const table = readTable(page.lines, marker.line + 1);
      if (!table) {
        problems.push(`${page.rel}:${marker.line + 1} <!-- names: ${name} --> is not followed by a table`);
        continue;
      }
      tableCount++;
      const kindColumn = table.header.findIndex((h) => h.toLowerCase() === "kind");
      for (const row of table.rows) {
        const names = [...row.cells[0].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
        if (names.length === 0) problems.push(`${page.rel}:${row.line} names table row has no \`name\` in its first column`);
        for (const listedName of names) {
          if (listed.has(listedName)) problems.push(`${page.rel}:${row.line} ${listedName} is listed twice for ${describeSet(name)}`);
          listed.set(listedName, { where: `${page.rel}:${row.line}`, kind: kindColumn >= 0 ? row.cells[kindColumn]?.trim() : undefined });
        }
      }
    }
    const where = `${first.page.rel}:${first.marker.line + 1}`;
    for (const [member, kind] of expected) {
      const entry = listed.get(member);
      if (!entry) problems.push(`${where} ${describeSet(name)} has ${member}, which no table under <!-- names: ${name} --> lists`);
      else if (kind !== undefined && entry.kind !== undefined && entry.kind !== kind) {
        problems.push(`${entry.where} ${member} is a ${kind}, the table says ${JSON.stringify(entry.kind)}`);
      }
    }
    for (const [member, { where: at }] of listed) {
      if (!expected.has(member)) problems.push(`${at} ${member} is not in ${describeSet(name)} (removed or renamed?)`);
    }
  }
  for (const entry of entries) {
    const key = `exports:${entry.specifier}`;
    if (entry.exists && !groups.has(key)) problems.push(`docs: no exports table for ${entry.specifier} (<!-- names: ${key} --> before a table of its exports)`);
  }
  return tableCount;
}

function describeSet(name) {
  return name.startsWith("exports:") ? `the public entry ${name.slice("exports:".length)}` : `the set ${name}`;
}

/** name → expected kind (or undefined when kinds do not apply), or undefined after reporting a problem. */
function expectedNameSet(name, entries, exportsBySpecifier, where) {
  if (name.startsWith("exports:")) {
    const specifier = name.slice("exports:".length);
    const entry = entries.find((e) => e.specifier === specifier);
    if (!entry) {
      problems.push(`${where} ${specifier} is not an entry point of any package (packages/*/package.json exports)`);
      return undefined;
    }
    if (!entry.exists) {
      problems.push(`${where} ${specifier}: its source entry ${relative(entry.file)} does not exist`);
      return undefined;
    }
    return exportsBySpecifier.get(specifier);
  }
  if (name === "error-codes") {
    const source = parseSource("packages/core/src/errors/codes.ts");
    const table = objectLiteralOf(findVariable(source, "ERROR_CODE_DEFAULTS").initializer);
    return new Map(table.properties.map((p) => [propertyName(p), undefined]));
  }
  if (name === "audit-events") {
    const source = parseSource("packages/core/src/audit/types.ts");
    return new Map(findTypeAlias(source, "AuditEventData").type.members.map((m) => [propertyName(m), undefined]));
  }
  problems.push(`${where} unknown name set "${name}" (known: exports:<entry point>, error-codes, audit-events)`);
  return undefined;
}

/** The GitHub-flavoured table starting at or after line `from` (blank lines skipped): header and rows. */
function readTable(lines, from) {
  let i = from;
  while (i < lines.length && lines[i].trim() === "") i++;
  if (i + 1 >= lines.length || !lines[i].trim().startsWith("|") || !/^\s*\|?\s*:?-{3,}/.test(lines[i + 1])) return undefined;
  const split = (line) =>
    line
      .trim()
      .replace(/^\|/, "")
      .replace(/\|$/, "")
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
  const header = split(lines[i]);
  const rows = [];
  for (let j = i + 2; j < lines.length && lines[j].trim().startsWith("|"); j++) rows.push({ cells: split(lines[j]), line: j + 1 });
  return { header, rows };
}

// ---------------------------------------------------------------------------------------------------------------
// Snippet resolution and the built site

/** Folders whose dependencies a docs snippet may import: every workspace package and example. */
function workspaceDirs() {
  const dirs = [];
  for (const group of ["packages", "examples"]) {
    const dir = path.join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      if (existsSync(path.join(dir, name, "package.json"))) dirs.push(path.join(dir, name));
    }
  }
  return dirs;
}

/** The READMEs a reader meets before the site: the root's and each workspace project's. */
function readmes() {
  return [root, ...workspaceDirs()].map((dir) => path.join(dir, "README.md")).filter((file) => existsSync(file));
}

function checkBuiltSite() {
  const dist = path.join(docsDir, ".vitepress", "dist");
  if (!existsSync(dist)) {
    problems.push("docs/.vitepress/dist does not exist: run vitepress build first (pnpm docs:build)");
    return;
  }
  for (const page of pages) {
    const html = path.join(dist, path.relative(docsDir, page.file).replace(/\.md$/, ".html"));
    if (!existsSync(html)) {
      problems.push(`${page.rel} was not rendered (no ${relative(html)})`);
      continue;
    }
    if (!page.checkedAnchors) continue;
    const ids = new Set([...readFileSync(html, "utf8").matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    for (const anchor of page.checkedAnchors) {
      if (!ids.has(anchor)) problems.push(`${page.rel}: anchor #${anchor} exists in the source but not in the built page (slug rules differ?)`);
    }
  }
}

function isInside(dir, target) {
  const rel = path.relative(dir, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function relative(file) {
  return path.relative(root, file).split(path.sep).join("/");
}

function main() {
  pages = listPages().map(readPage);
  byFile = new Map(pages.map((p) => [p.file, p]));
  const generatedCount = checkGenerated();
  if (flags.has("--write")) {
    // Blocks were rewritten: read the pages again, so line numbers below match the files.
    pages = listPages().map(readPage);
    byFile = new Map(pages.map((p) => [p.file, p]));
  }
  const linkCount = checkLinks();
  const entryPoints = listEntryPoints();
  const nameSetCount = checkNameSets(entryPoints);
  const snippets = checkMarkdownSnippets({ root, files: pages.map((p) => p.file), fallbackDirs: workspaceDirs() });
  problems.push(...snippets.problems);
  const commands = checkDocumentedCommands({ root, files: [...pages.map((p) => p.file), ...readmes()] });
  problems.push(...commands.problems);
  if (flags.has("--built")) checkBuiltSite();

  if (problems.length > 0) {
    console.error(`check:docs: ${problems.length} problem(s) in ${pages.length} pages`);
    for (const problem of problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(
    `check:docs: ok (${pages.length} pages, ${linkCount} links, ${snippets.checked} snippets, ${generatedCount} generated blocks, ` +
      `${nameSetCount} name tables, ${entryPoints.filter((e) => e.exists).length} entry points, ${commands.checked} pnpm commands)`,
  );
}

main();
