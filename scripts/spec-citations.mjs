// Spec citations in code comments: where they are, what they name, and whether docs/architecture has the anchor.
// scripts/check-citations.mjs (the CI check) and scripts/migrate-citations.mjs (the one-off rewrite) share it.
//
// Two forms exist. The old one names a spec file that used to live outside the repository (the core, adapters,
// postgres, cli or distributed spec by its file name, with a section sign and number, a rule, or nothing), or a
// section sign and number alone (read against the spec of the file's package), or the December 2026 amendments by
// name and month. The new one is a path inside the repository, e.g. `docs/architecture/spec/core.md#core-r5`.
// Only comments are read: strings, test titles among them, are code.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const ts = createRequire(import.meta.url)("typescript");

/** The spec files, each now a page of docs/architecture/spec/ whose anchors start with its name. */
export const SPEC_DOCS = ["core", "adapters", "postgres", "cli", "distributed"];
export const SPEC_DIR = "docs/architecture/spec";
export const AMENDMENTS_PAGE = `${SPEC_DIR}/amendments-2026-12.md`;

const SCRIPT_EXTENSIONS = new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]);
const SKIPPED_DIRS = new Set(["node_modules", "dist", "coverage", "reports", ".git", ".stryker-tmp", "cache"]);

// ---------------------------------------------------------------------------------------------------------------
// Files and comments

/** Source, test, example and script files under root: git's view when root is a checkout, else a walk. */
export function listSourceFiles(root) {
  let files;
  try {
    const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    files = out.split("\0").filter(Boolean);
  } catch {
    files = walk(root, "");
  }
  return files
    .filter((f) => !f.split("/").some((part) => SKIPPED_DIRS.has(part)) && !f.startsWith("docs/architecture/spec/"))
    .filter((f) => isScript(f) || isJsonc(f) || isShell(root, f))
    .filter((f) => existsSync(path.join(root, f)))
    .sort();
}

function walk(root, rel) {
  const found = [];
  for (const name of readdirSync(path.join(root, rel)).sort()) {
    if (SKIPPED_DIRS.has(name)) continue;
    const child = rel ? `${rel}/${name}` : name;
    if (statSync(path.join(root, child)).isDirectory()) found.push(...walk(root, child));
    else found.push(child);
  }
  return found;
}

function isScript(file) {
  return SCRIPT_EXTENSIONS.has(path.extname(file)) && !file.endsWith(".d.ts.map");
}

/** JSON that allows comments: tsconfig files and `*.jsonc`. */
function isJsonc(file) {
  return file.endsWith(".jsonc") || /(^|\/)tsconfig[^/]*\.json$/.test(file);
}

/** Shell scripts: `*.sh`, and extension-less files under .ci/ or bin/ that start with a shell shebang. */
function isShell(root, file) {
  if (file.endsWith(".sh")) return true;
  if (path.extname(file) !== "" || !/(^|\/)(\.ci|bin)\//.test(file)) return false;
  return /^#!.*\b(ba|z)?sh\b/.test(readFileSync(path.join(root, file), "utf8").slice(0, 100));
}

/** Every comment of a file as `{ start, end }` offsets into its text (delimiters included). */
export function commentRanges(file, text) {
  return isScript(file) || isJsonc(file) ? scriptComments(file, text) : shellComments(text);
}

function scriptComments(file, text) {
  const ext = path.extname(file);
  const kind = isJsonc(file)
    ? ts.ScriptKind.JSON
    : ext === ".tsx" || ext === ".jsx"
      ? ts.ScriptKind.TSX
      : [".js", ".mjs", ".cjs"].includes(ext)
        ? ts.ScriptKind.JS
        : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Map();
  const literals = [];
  const add = (ranges) => {
    for (const r of ranges ?? []) seen.set(r.pos, { start: r.pos, end: r.end });
  };
  const visit = (node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    if (node.kind === ts.SyntaxKind.JsxText) literals.push([node.pos, node.end]);
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  // Trivia scanned over JSX text is text, not a comment.
  return [...seen.values()]
    .filter((c) => !literals.some(([from, to]) => c.start >= from && c.start < to))
    .sort((a, b) => a.start - b.start);
}

/** `#` comments of a shell script: at a line's start or after a blank, outside quotes; the shebang is not one. */
function shellComments(text) {
  const ranges = [];
  let offset = 0;
  for (const line of text.split("\n")) {
    let quote = undefined;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (quote) {
        if (c === "\\" && quote === '"') i++;
        else if (c === quote) quote = undefined;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === "\\") i++;
      else if (c === "#" && (i === 0 || /\s/.test(line[i - 1])) && !(offset === 0 && line.startsWith("#!"))) {
        ranges.push({ start: offset + i, end: offset + line.length });
        break;
      }
    }
    offset += line.length + 1;
  }
  return ranges;
}

// ---------------------------------------------------------------------------------------------------------------
// Old citations

/**
 * The spec a bare section sign means in a file that names no spec before it: the spec of the package it belongs to.
 * Core's remote entry points (client, http, server) and the Postgres journal are specified in the distributed spec.
 */
export function defaultSpecFor(file) {
  if (/^packages\/core\/(src|test)\/(client|http|server|remote)\//.test(file)) return "distributed";
  if (/^packages\/postgres\/(src|test)\/journal\//.test(file)) return "distributed";
  if (file.startsWith("packages/core/test/conformance/")) return "adapters";
  const pkg = /^packages\/([^/]+)\//.exec(file)?.[1];
  if (pkg === "core") return "core";
  if (pkg === "cli") return "cli";
  if (pkg === "postgres") return "postgres";
  if (pkg === "dbos") return "distributed";
  if (pkg === "ai-sdk" || pkg === "mcp" || pkg === "testing" || pkg === "opentelemetry") return "adapters";
  if (file.startsWith("test-fixtures/")) return "adapters";
  return "core";
}

const SECTION = String.raw`\d+(?:\.\d+)*`;
// What a section number belongs to: a spec file, the amendments, or a document that is not this spec (an ADR, an
// RFC, the W3C Trace Context recommendation).
const QUALIFIER = String.raw`(?:(?<spec>${SPEC_DOCS.join("|")})\.md|(?<amend>amendments(?: 2026-12)?,?)|(?<foreign>ADR-\d+|RFC ?\d+|Trace Context))`;
const CITATION = new RegExp(String.raw`(?:${QUALIFIER}\s+)?§\s?(?<section>${SECTION})(?<rule>\s+(?:R\d+|SI-\d+)\b)?`, "g");
// A section that continues a list started by a qualified one, after a comma, "and", "or", a slash or a dash.
const CONTINUES = /^(?:,\s*|\s+and\s+|\s+or\s+|\s*\/\s*|\s*[–-]\s*)$/;
const ABSORBED = /^,?\s+(?:stage|item)\s+\d+\b/;
const AMENDMENTS_PLAIN = /\bamendments[ -]2026-12\b(?!\.md)/g;
// A spec file named without a section, alone or followed by a rule. A path (`docs/reference/…`) is not one.
const SPEC_FILE_PLAIN = new RegExp(String.raw`(?<![\w/.-])(?<spec>${SPEC_DOCS.join("|")})\.md\b(?!\s*§)(?<rule>\s+(?:R\d+|SI-\d+)\b)?`, "g");

/**
 * The old citations in one comment's text: `{ index, length, text, spec, section, rule, target }`. `target` is the
 * new form's path#anchor; citations of an ADR or an RFC are not returned. `spec` is undefined for a citation of the
 * amendments page as a whole.
 */
export function findOldCitations(comment, file) {
  const found = [];
  let lastSpec = undefined; // the spec the comment named last: a later bare section means it
  let chain = undefined; // the document of the citation just before, for lists
  let chainEnd = -1;
  for (const m of comment.matchAll(CITATION)) {
    const g = m.groups;
    const between = chainEnd >= 0 ? comment.slice(chainEnd, m.index) : undefined;
    let doc;
    if (g.spec) doc = g.spec;
    else if (g.amend) doc = "amendments";
    else if (g.foreign) doc = "foreign";
    else if (chain && between !== undefined && CONTINUES.test(between)) doc = chain;
    else doc = lastSpec ?? defaultSpecFor(file);
    chain = doc;
    chainEnd = m.index + m[0].length;
    if (doc === "foreign") continue;
    if (SPEC_DOCS.includes(doc)) lastSpec = doc;
    const rule = g.rule?.trim();
    const target = targetFor(doc, g.section, rule, comment.slice(chainEnd, chainEnd + 40));
    // The words a stage or item anchor stands for go with the citation: "section 6, stage 9" becomes one path.
    const absorbed = /#core-(?:stage|15-item)-\d+$/.test(target) && !g.section.includes(".") ? (ABSORBED.exec(comment.slice(chainEnd))?.[0].length ?? 0) : 0;
    chainEnd += absorbed;
    found.push({ index: m.index, length: m[0].length + absorbed, text: comment.slice(m.index, chainEnd), spec: doc, section: g.section, rule, target });
  }
  for (const m of comment.matchAll(SPEC_FILE_PLAIN)) {
    const rule = m.groups.rule?.trim();
    const page = `${SPEC_DIR}/${m.groups.spec}.md`;
    found.push({ index: m.index, length: m[0].length, text: m[0], spec: m.groups.spec, section: undefined, rule, target: rule ? `${page}#${m.groups.spec}-${rule.toLowerCase()}` : page });
  }
  for (const m of comment.matchAll(AMENDMENTS_PLAIN)) {
    if (found.some((c) => m.index >= c.index && m.index < c.index + c.length)) continue;
    found.push({ index: m.index, length: m[0].length, text: m[0], spec: undefined, section: undefined, rule: undefined, target: AMENDMENTS_PAGE });
  }
  return found.sort((a, b) => a.index - b.index);
}

/**
 * The new form for one old citation. A rule (R5, SI-8) has its own anchor; so do the stages of core section 6
 * and the items of core section 15 when the words after the section name them (or, for items, its sub-number).
 * The amendments name the section they amend.
 */
export function targetFor(doc, section, rule, after = "") {
  if (doc === "amendments") {
    const anchor = ["amendments", "core", ...section.split("."), ...(rule ? [rule.toLowerCase()] : [])].join("-");
    return `${AMENDMENTS_PAGE}#${anchor}`;
  }
  const page = `${SPEC_DIR}/${doc}.md`;
  if (rule) return `${page}#${doc}-${rule.toLowerCase()}`;
  if (doc === "core" && section === "6") {
    const stage = /^,?\s+stages?\s+(\d+)\b(?!\s*[–-]\s*\d)/.exec(after);
    if (stage) return `${page}#core-stage-${stage[1]}`;
  }
  if (doc === "core" && /^15\.\d+$/.test(section)) return `${page}#core-15-item-${section.slice(3)}`;
  if (doc === "core" && section === "15") {
    const item = /^,?\s+items?\s+(\d+)\b/.exec(after);
    if (item) return `${page}#core-15-item-${item[1]}`;
  }
  return `${page}#${doc}-${section.replaceAll(".", "-")}`;
}

// ---------------------------------------------------------------------------------------------------------------
// New citations and anchors

const NEW_CITATION = /\bdocs\/architecture\/[\w./-]*?\.md(?:#[\w-]+)?/g;

/** `{ index, text, page, anchor }` for each path into docs/architecture in a comment. */
export function findNewCitations(comment) {
  return [...comment.matchAll(NEW_CITATION)].map((m) => {
    const hash = m[0].indexOf("#");
    return { index: m.index, text: m[0], page: hash < 0 ? m[0] : m[0].slice(0, hash), anchor: hash < 0 ? undefined : m[0].slice(hash + 1) };
  });
}

/** The anchors of every page under docs/architecture: `{#id}` headings, `id="…"` attributes and VitePress slugs. */
export function readAnchors(root) {
  const pages = new Map();
  const dir = path.join(root, "docs/architecture");
  if (!existsSync(dir)) return pages;
  for (const rel of walk(dir, "").filter((f) => f.endsWith(".md"))) {
    pages.set(`docs/architecture/${rel}`, pageAnchors(readFileSync(path.join(dir, rel), "utf8")));
  }
  return pages;
}

function pageAnchors(text) {
  const anchors = new Set();
  const taken = new Map();
  let fence = undefined;
  for (const line of text.split(/\r?\n/)) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      continue;
    }
    if (marker) {
      fence = marker;
      continue;
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const custom = /\{#([^}\s]+)\}\s*$/.exec(heading[1]);
      if (custom) anchors.add(custom[1]);
      else {
        const slug = slugify(heading[1]);
        const n = taken.get(slug) ?? 0;
        taken.set(slug, n + 1);
        anchors.add(n === 0 ? slug : `${slug}-${n}`);
      }
    }
    for (const id of line.matchAll(/\sid="([^"]+)"/g)) anchors.add(id[1]);
  }
  return anchors;
}

/** The id VitePress gives a heading without `{#id}`: its text without markup, lower-cased, punctuation as `-`. */
function slugify(heading) {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<\/?[A-Za-z][^>]*>/g, "")
    .replace(/`/g, "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036F]/g, "")
    .replace(/[\u0000-\u001f]/g, "")
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .replace(/^(\d)/, "_$1")
    .toLowerCase();
}

// ---------------------------------------------------------------------------------------------------------------
// A whole tree

// A cheap test that a file may hold a citation of either form, before its comments are parsed.
const MAY_CITE = new RegExp(String.raw`§|docs/architecture/|amendments[ -]2026|\b(?:${SPEC_DOCS.join("|")})\.md\b`);

/** Line number (1-based) of an offset. */
export function lineOf(text, offset) {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * Every citation under root, old and new: `{ file, line, kind: "old" | "new", text, target?, offset }`, where
 * `offset` is the citation's offset in the file.
 */
export function scanTree(root) {
  const citations = [];
  for (const file of listSourceFiles(root)) {
    const text = readFileSync(path.join(root, file), "utf8");
    if (!MAY_CITE.test(text)) continue;
    for (const range of commentRanges(file, text)) {
      const comment = text.slice(range.start, range.end);
      for (const c of findOldCitations(comment, file)) {
        const offset = range.start + c.index;
        citations.push({ file, line: lineOf(text, offset), kind: "old", text: c.text, target: c.target, offset, length: c.length, rule: c.rule });
      }
      for (const c of findNewCitations(comment)) {
        const offset = range.start + c.index;
        citations.push({ file, line: lineOf(text, offset), kind: "new", text: c.text, page: c.page, anchor: c.anchor, offset, length: c.text.length });
      }
    }
  }
  return citations;
}

/** Whether a path#anchor names an existing page of docs/architecture and, when given, one of its anchors. */
export function resolves(anchors, page, anchor) {
  const ids = anchors.get(page);
  return ids !== undefined && (anchor === undefined || ids.has(anchor));
}
