#!/usr/bin/env node
// Typechecks the TypeScript code blocks (```ts / ```typescript / ```tsx) of README.md, packages/*/README.md and
// examples/*/README.md, so that documentation cannot drift from the APIs it shows.
//
//   node scripts/check-readme-snippets.mjs [root]     root defaults to this repository
//
// Exit 0 and "check:readme: ok (N snippets)" when every checked snippet compiles; exit 1 listing
// `file snippet #i (line L): line M TSxxxx message` per problem; exit 2 when the root has no README.md.
//
// How a snippet is compiled
//   Each block is one ES module, compiled in memory (nothing is written to disk) as if it were a file in
//   the folder of its README. Bare imports therefore resolve like that folder's own code: a package README's
//   snippet sees the package's dependencies and the package itself (by its name), with `@orpc-agent/*`
//   resolved to TypeScript sources through the `@orpc-agent/source` condition, so no build is needed.
//   Options: strict, ES2022, NodeNext, skipLibCheck, noEmit. Only diagnostics located in snippets count.
//
// Also a module: `checkMarkdownSnippets({ root, files, fallbackDirs })` runs the same check on other Markdown
// files (scripts/check-docs.mjs uses it for the documentation site).
//
// Directives: an HTML comment on the line(s) just before the fence (blank lines may separate them):
//   <!-- snippet: skip -->               a fragment or pseudo-signature; not compiled (and not counted)
//   <!-- snippet: in <dir> -->           compile as a file in <dir> (relative to the README's folder), so an
//                                        excerpt keeps the relative imports of the file it was taken from
//   <!-- snippet: prelude                hidden declarations prepended to the snippet, for a fragment that
//   declare const runtime: AgentRuntime;   uses variables declared elsewhere; rendered Markdown hides them
//   -->
//   <!-- snippet: ai 6 7 -->             compile once per listed `ai` major (5, 6, 7): in the snippet and in every
//                                        workspace source it reaches, `ai`, `@ai-sdk/provider` and `@ai-sdk/react`
//                                        resolve to the lockfile-pinned aliases of that major (`ai-v6`,
//                                        `@ai-sdk/react-v6`, ...), as the ai-sdk legs alias them. Without it a
//                                        snippet sees whatever `ai` its folder resolves (the workspace's v5).
// A ```tsx block compiles as a .tsx module (`jsx: react-jsx`), so it needs React's types where it resolves.
// Prefer complete snippets; use a prelude only for a short fragment whose context the prose gives.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

// `require` skips the ESM named-export scan of TypeScript's 9 MB bundle.
const ts = createRequire(import.meta.url)("typescript");

const COMPILER_OPTIONS = {
  target: "ES2022",
  lib: ["ES2023", "DOM"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  moduleDetection: "force",
  customConditions: ["@orpc-agent/source"],
  strict: true,
  esModuleInterop: true,
  resolveJsonModule: true,
  skipLibCheck: true,
  noEmit: true,
  jsx: "react-jsx",
};

/**
 * What each `ai` major's packages are installed as (packages/ai-sdk/vitest.legs.config.ts has the same map).
 * v5 is the workspace default: its names resolve as written.
 */
const AI_MAJORS = {
  5: {},
  6: { ai: "ai-v6", "@ai-sdk/provider": "@ai-sdk/provider-v3", "@ai-sdk/react": "@ai-sdk/react-v6" },
  7: { ai: "ai-v7", "@ai-sdk/provider": "@ai-sdk/provider-v4", "@ai-sdk/react": "@ai-sdk/react-v7" },
};

// State of the run in progress; `checkMarkdownSnippets` is synchronous, so one run at a time.
let root = "";
let problems = [];
let virtualCount = 0;
let fallbackDirs = [];

if (isMain()) {
  const repoRoot = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
  if (!existsSync(path.join(repoRoot, "README.md"))) {
    console.error(`check:readme: no README.md under ${repoRoot}`);
    process.exit(2);
  }
  const result = checkMarkdownSnippets({ root: repoRoot, files: listReadmes(repoRoot) });
  if (result.problems.length > 0) {
    console.error(`check:readme: ${result.problems.length} problem(s) in ${result.checked} snippets`);
    for (const problem of result.problems) console.error(`  ${problem}`);
    process.exit(1);
  }
  console.log(`check:readme: ok (${result.checked} snippets)`);
}

/**
 * Typechecks the ts blocks of `files` (Markdown, absolute paths inside `root`) as described at the top of this
 * file, and returns the problems found (bad directives, unclosed fences, compiler diagnostics) with the number of
 * snippets compiled. `fallbackDirs`: folders whose resolution a snippet's bare import falls back to when its own
 * folder cannot resolve it (the docs site, whose folder depends on no package, resolves through the workspace).
 * Used by scripts/check-docs.mjs.
 */
export function checkMarkdownSnippets({ root: checkRoot, files, fallbackDirs: fallbacks = [] }) {
  root = path.resolve(checkRoot);
  problems = [];
  virtualCount = 0;
  fallbackDirs = fallbacks.map((dir) => path.resolve(dir));
  const snippets = [];
  for (const file of files) snippets.push(...readSnippets(file));
  const checked = snippets.filter((s) => !s.skip);
  // One program per `ai` major: a source reached under two majors must see each major's types.
  const byMajor = new Map();
  for (const snippet of checked) for (const major of snippet.aiMajors ?? [undefined]) {
    if (!byMajor.has(major)) byMajor.set(major, []);
    byMajor.get(major).push(major === undefined ? snippet : { ...snippet, virtualPath: snippet.virtualPath.replace(/__(\.tsx?)$/, `_ai${major}__$1`), label: ` (ai ${major})` });
  }
  for (const [major, list] of byMajor) typecheck(list, major);
  return { problems, checked: checked.length };
}

function isMain() {
  return process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
}

function listReadmes(root) {
  const readmes = [path.join(root, "README.md")];
  for (const group of ["packages", "examples"]) {
    const dir = path.join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const readme = path.join(dir, name, "README.md");
      if (statSync(path.join(dir, name)).isDirectory() && existsSync(readme)) readmes.push(readme);
    }
  }
  return readmes;
}

/**
 * The TypeScript blocks of one README with their directives. `index` counts every ts block of the file
 * (skipped ones too), so "snippet #3" is the third one a reader sees.
 */
function readSnippets(readme) {
  const file = relative(readme);
  const lines = readFileSync(readme, "utf8").split(/\r?\n/);
  const found = [];
  let index = 0;
  let pending = undefined; // directives waiting for their fence: { line, skip, dir, prelude }

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`{]*)/.exec(line);
    if (open) {
      const [, indent, fence, info] = open;
      const end = findClosingFence(lines, i + 1, fence);
      if (end < 0) {
        problems.push(`${file}:${i + 1} code fence is never closed`);
        break;
      }
      const language = info.toLowerCase();
      if (language === "ts" || language === "typescript" || language === "tsx") {
        index++;
        const code = lines.slice(i + 1, end).map((l) => stripIndent(l, indent.length));
        found.push(makeSnippet(readme, file, index, i + 2, code, pending, language === "tsx"));
      } else if (pending) {
        problems.push(`${file}:${pending.line} snippet directive applies to a \`${info || "plain"}\` block; only ts blocks are checked`);
      }
      pending = undefined;
      i = end;
      continue;
    }
    if (/^\s*<!--\s*snippet:/.test(line)) {
      const close = lines.findIndex((l, j) => j >= i && l.includes("-->"));
      if (close < 0) {
        problems.push(`${file}:${i + 1} snippet directive is never closed with -->`);
        break;
      }
      pending = parseDirective(file, lines, i, close, pending ?? { line: i + 1, skip: false, dir: undefined, prelude: [], aiMajors: undefined });
      i = close;
      continue;
    }
    if (pending && line.trim() !== "") {
      problems.push(`${file}:${pending.line} snippet directive is not followed by a code fence`);
      pending = undefined;
    }
  }
  if (pending) problems.push(`${file}:${pending.line} snippet directive is not followed by a code fence`);
  return found;
}

function findClosingFence(lines, from, fence) {
  for (let j = from; j < lines.length; j++) {
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[j]);
    if (close && close[1][0] === fence[0] && close[1].length >= fence.length) return j;
  }
  return -1;
}

/** Folds one `<!-- snippet: ... -->` comment (lines start..end) into the pending directives. */
function parseDirective(file, lines, start, end, pending) {
  const body = lines.slice(start, end + 1).join("\n");
  const text = body.slice(body.indexOf("snippet:") + "snippet:".length, body.lastIndexOf("-->"));
  const firstLine = text.split("\n")[0].trim();
  const [keyword, ...rest] = firstLine.split(/\s+/);
  if (keyword === "skip" && rest.length === 0) return { ...pending, skip: true };
  if (keyword === "in" && rest.length === 1 && pending.dir === undefined) return { ...pending, dir: rest[0] };
  if (keyword === "ai" && rest.length > 0 && pending.aiMajors === undefined) {
    const majors = [...new Set(rest)];
    if (majors.every((m) => Object.hasOwn(AI_MAJORS, m))) return { ...pending, aiMajors: majors };
    problems.push(`${file}:${start + 1} snippet directive "${firstLine}" names an \`ai\` major other than ${Object.keys(AI_MAJORS).join(", ")}`);
    return pending;
  }
  if (keyword === "prelude" && rest.length === 0 && pending.prelude.length === 0) {
    // The code starts on the comment's second line; each line keeps its README line for diagnostics.
    const prelude = [];
    for (let j = start + 1; j <= end; j++) {
      const code = j === end ? lines[j].slice(0, lines[j].lastIndexOf("-->")) : lines[j];
      if (j < end || code.trim() !== "") prelude.push({ text: code, line: j + 1 });
    }
    return { ...pending, prelude };
  }
  problems.push(`${file}:${start + 1} unknown or repeated snippet directive "${firstLine}" (expected skip, in <dir>, prelude or ai <majors>)`);
  return pending;
}

function makeSnippet(readme, file, index, firstLine, code, directives, tsx = false) {
  const where = directives?.dir ? path.resolve(path.dirname(readme), directives.dir) : path.dirname(readme);
  const snippet = { file, index, fenceLine: firstLine - 1, skip: directives?.skip === true };
  if (snippet.skip) return snippet;
  if (!isInside(root, where) || !existsSync(where) || !statSync(where).isDirectory()) {
    problems.push(`${file} snippet #${index} (line ${snippet.fenceLine}): "in ${directives.dir}" is not a folder inside the repository`);
    return { ...snippet, skip: true };
  }
  const prelude = directives?.prelude ?? [];
  // Line n (0-based) of the virtual file → README line, for diagnostics.
  const lineMap = [...prelude.map((p) => p.line), ...code.map((_, i) => firstLine + i)];
  const text = [...prelude.map((p) => p.text), ...code].join("\n") + "\n";
  // A name no real file uses; `__` keeps it apart from the folder's own modules.
  const virtualPath = path.join(where, `__readme_snippet_${++virtualCount}__.${tsx ? "tsx" : "ts"}`);
  return { ...snippet, virtualPath, text, lineMap, tsx, aiMajors: directives?.aiMajors, label: "" };
}

/** One program for every snippet of one `ai` major: the sources they import are parsed once. */
function typecheck(list, aiMajor) {
  const { options, errors } = ts.convertCompilerOptionsFromJson(COMPILER_OPTIONS, root);
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, formatHost()));
  const byPath = new Map(list.map((s) => [s.virtualPath, s]));
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.getCurrentDirectory = () => root;
  host.fileExists = (name) => byPath.has(path.resolve(name)) || fileExists.call(host, name);
  host.readFile = (name) => byPath.get(path.resolve(name))?.text ?? readFile.call(host, name);
  host.getSourceFile = (name, languageVersion, onError, shouldCreate) => {
    const snippet = byPath.get(path.resolve(name));
    if (snippet) return ts.createSourceFile(name, snippet.text, languageVersion, true, snippet.tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    return getSourceFile.call(host, name, languageVersion, onError, shouldCreate);
  };
  const aliases = AI_MAJORS[aiMajor] ?? {};
  if (fallbackDirs.length > 0 || Object.keys(aliases).length > 0) {
    // A snippet's unresolved bare import is resolved as if written in each fallback folder, in order.
    host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions, containingSource) =>
      literals.map((literal) => {
        const mode = ts.getModeForUsageLocation(containingSource, literal, compilerOptions);
        // Installed packages keep their own dependencies; only the snippet and workspace sources switch major.
        const specifier = containingFile.split(/[\\/]/).includes("node_modules") ? literal.text : aliasFor(literal.text, aliases);
        const own = ts.resolveModuleName(specifier, containingFile, compilerOptions, host, undefined, redirected, mode);
        if (own.resolvedModule || !byPath.has(path.resolve(containingFile)) || !isBare(specifier)) return own;
        for (const dir of fallbackDirs) {
          const other = ts.resolveModuleName(specifier, path.join(dir, "__snippet_fallback__.ts"), compilerOptions, host, undefined, redirected, mode);
          if (other.resolvedModule) return other;
        }
        return own;
      });
  }

  const program = ts.createProgram({ rootNames: [...byPath.keys()], options, host });
  for (const diagnostic of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) {
    problems.push(`(compiler) TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`);
  }
  for (const snippet of list) {
    const source = program.getSourceFile(snippet.virtualPath);
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    for (const diagnostic of diagnostics) {
      const at = diagnostic.start === undefined ? "" : `line ${readmeLine(snippet, source, diagnostic.start)} `;
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
      problems.push(`${snippet.file} snippet #${snippet.index}${snippet.label} (line ${snippet.fenceLine}): ${at}TS${diagnostic.code} ${message}`);
    }
  }
}

function readmeLine(snippet, source, position) {
  const { line } = source.getLineAndCharacterOfPosition(position);
  return snippet.lineMap[Math.min(line, snippet.lineMap.length - 1)];
}

function formatHost() {
  return { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" };
}

function stripIndent(line, width) {
  let i = 0;
  while (i < width && line[i] === " ") i++;
  return line.slice(i);
}

/** `ai/test` → `ai-v6/test` for major 6: the package name is swapped, the subpath kept. */
function aliasFor(specifier, aliases) {
  for (const [name, alias] of Object.entries(aliases)) {
    if (specifier === name) return alias;
    if (specifier.startsWith(`${name}/`)) return alias + specifier.slice(name.length);
  }
  return specifier;
}

function isBare(specifier) {
  return !specifier.startsWith(".") && !specifier.startsWith("/") && !/^[a-z]+:/i.test(specifier);
}

function isInside(dir, target) {
  const rel = path.relative(dir, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

function relative(file) {
  return path.relative(root, file).split(path.sep).join("/");
}
