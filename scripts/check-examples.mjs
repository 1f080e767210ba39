#!/usr/bin/env node
// Typechecks the `@example` blocks of the doc comments in packages/*/src, so that an example cannot drift from the
// API it documents (issue 32).
//
//   node scripts/check-examples.mjs [root] [--keep]     root defaults to this repository
//
// Exit 0 and "check:examples: ok (N examples in F files)" when every example compiles; exit 1 listing
// `file:line (example at line E) TSxxxx message` per problem, where `file:line` is the source line the diagnostic
// falls on; exit 2 when root has no packages/ folder.
//
// What an example is
//   The text of a `/** … */` comment from an `@example` tag to the next block tag (a line starting with `@word`) or
//   the end of the comment, with each line's leading ` * ` removed. Text on the tag's own line is a title (TSDoc),
//   not code. When the block holds Markdown fences, only the ```ts / ```typescript / ```tsx / bare ``` fences are
//   code (other languages and the prose around them are not compiled); otherwise the whole block is code. A tsx
//   fence compiles as a .tsx module (`jsx: react-jsx`), so it needs React's types where its package resolves them.
//   Each example is one ES module (top-level await allowed) that imports what it uses by package name, as a user
//   would: `import { toAISDKTools } from "@orpc-agent/ai-sdk";`. An example of a module-private helper imports it
//   relative to the source file, as the file's neighbours do: `import { sha256Hex } from "./hash.js";`.
//
// What an example takes as given: `declare`
//   Names the surrounding program would hold are declared in the example itself, with TypeScript's own `declare`
//   (`declare const runtime: AgentRuntime<{ db: Db }>, session: { actor: Actor };`), after the imports their types
//   need (`import type { AgentRuntime } from "@orpc-agent/core";`). Readers see what the example assumes, and the
//   block stays a module that compiles as written; there is no hidden preamble. Not a comment marker such as
//   `// @declare`: TypeScript's JSDoc parser starts a new tag at any `@word` that follows whitespace, even mid-line
//   or inside a fence, so editor hovers would cut the example there. For the same reason this check fails on such
//   an `@` in an example (outside inline backticks); `"@scope/pkg"` and `x@y` are fine.
//
// How it is compiled
//   Each example is written to `packages/<package>/.examples-check/` (git-ignored; removed afterwards unless
//   --keep), so a bare import resolves through that package's node_modules as its own sources do. Every
//   `@orpc-agent/*` entry point maps to its TypeScript source (tsconfig `paths`, generated from each package.json's
//   `@orpc-agent/source` export conditions), so an example may use a sibling package and no build is needed.
//   `.examples-check/tsconfig.json` at the root lists them all; one program compiles them (reproduce with
//   `--keep` and `npx tsc -p .examples-check/tsconfig.json`). Options: those of tsconfig.base.json (strict,
//   ES2022, NodeNext, verbatimModuleSyntax), noEmit. Only diagnostics located in examples count.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

// `require` skips the ESM named-export scan of TypeScript's 9 MB bundle.
const ts = createRequire(import.meta.url)("typescript");

const SCRATCH = ".examples-check";
const CODE_FENCES = new Set(["", "ts", "typescript", "tsx"]);
const SOURCE = /\.(ts|tsx|mts|cts)$/;

const args = process.argv.slice(2);
const keep = args.includes("--keep");
const rootArg = args.find((a) => !a.startsWith("--"));
const root = path.resolve(rootArg ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
const packagesDir = path.join(root, "packages");
if (!existsSync(packagesDir)) {
  console.error(`check:examples: no packages/ under ${root}`);
  process.exit(2);
}

const started = Date.now();
const problems = [];
const packages = readdirSync(packagesDir)
  .sort()
  .filter((name) => existsSync(path.join(packagesDir, name, "package.json")));

const examples = [];
for (const pkg of packages) {
  const src = path.join(packagesDir, pkg, "src");
  if (!existsSync(src)) continue;
  for (const file of listSources(src)) examples.push(...readExamples(file, pkg));
}

const scratchDirs = [path.join(root, SCRATCH), ...packages.map((pkg) => path.join(packagesDir, pkg, SCRATCH))];
try {
  if (examples.length > 0) typecheck(examples);
} finally {
  if (!keep) for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
}

const files = new Set(examples.map((e) => e.file)).size;
if (problems.length > 0) {
  console.error(`check:examples: ${problems.length} problem(s) in ${examples.length} examples`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`check:examples: ok (${examples.length} examples in ${files} files, ${((Date.now() - started) / 1000).toFixed(1)}s)`);

function listSources(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...listSources(full));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(full);
  }
  return found;
}

/** The `@example` blocks of one source file, each with the source line of every code line. */
function readExamples(file, pkg) {
  const text = readFileSync(file, "utf8");
  const rel = relative(file);
  const found = [];
  const { source, comments } = docComments(text, file);
  for (const comment of comments) {
    const startLine = source.getLineAndCharacterOfPosition(comment.pos).line + 1;
    // Line i of the comment → { text without its ` * ` prefix, source line }.
    const lines = text
      .slice(comment.pos, comment.end)
      .split(/\r?\n/)
      .map((raw, i) => ({ text: stripCommentLine(raw, i), line: startLine + i }));
    for (let i = 0; i < lines.length; i++) {
      const tag = /^@example(?:\s|$)/.exec(lines[i].text);
      if (!tag) continue;
      let end = i + 1;
      while (end < lines.length && !/^@\w/.test(lines[end].text)) end++;
      for (const l of lines.slice(i + 1, end)) {
        const at = tagStart(l.text);
        if (at >= 0) problems.push(`${rel}:${l.line} "${l.text.slice(at).split(/\s/)[0]}" after whitespace starts a new JSDoc tag for TypeScript, which cuts the @example there in editors; reword it or put it in \`backticks\``);
      }
      for (const block of codeOf(lines.slice(i + 1, end), rel)) {
        if (block.every((l) => l.text.trim() === "")) continue;
        found.push({ file: rel, pkg, tagLine: lines[i].line, code: block, tsx: block.tsx === true });
      }
      i = end - 1;
    }
  }
  return found;
}

/**
 * Where TypeScript's JSDoc parser would start a tag inside an example line: an `@` after whitespace, followed by a
 * non-space, outside inline backticks (their state resets at each line end). -1 when none.
 */
function tagStart(line) {
  let inBackticks = false;
  for (let i = 1; i < line.length; i++) {
    if (line[i - 1] === "`") inBackticks = !inBackticks;
    if (line[i] === "@" && !inBackticks && /\s/.test(line[i - 1]) && i + 1 < line.length && !/\s/.test(line[i + 1])) return i;
  }
  return -1;
}

/** The `/** … *\/` comments of a file, found through the parser so that comment-like text in strings is not one. */
function docComments(text, file) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Map();
  const visit = (node) => {
    for (const range of ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []) {
      if (range.kind === ts.SyntaxKind.MultiLineCommentTrivia && text.startsWith("/**", range.pos) && !text.startsWith("/**/", range.pos)) seen.set(range.pos, range);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  visit(source.endOfFileToken);
  return { source, comments: [...seen.values()].sort((a, b) => a.pos - b.pos) };
}

/** One comment line without the opening `/**`, the closing `*\/` and the leading `*` with one space after it. */
function stripCommentLine(raw, index) {
  let line = index === 0 ? raw.replace(/^\s*\/\*\*/, "") : raw;
  line = line.replace(/\*\/\s*$/, "");
  if (index > 0) line = line.replace(/^\s*\* ?/, "");
  return index === 0 ? line.trim() : line.replace(/\s+$/, "");
}

/** The code of one example body: its ts fences when it has fences, else the whole body. */
function codeOf(body, file) {
  const opens = body.map((l) => /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/.exec(l.text));
  if (!opens.some(Boolean)) return [trimBlank(body)];
  const blocks = [];
  for (let i = 0; i < body.length; i++) {
    const open = opens[i];
    if (!open) continue;
    const [, indent, fence, info] = open;
    let close = i + 1;
    while (close < body.length && !new RegExp(`^\\s*${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`).test(body[close].text)) close++;
    if (close === body.length) {
      problems.push(`${file}:${body[i].line} the @example code fence is never closed`);
      return blocks;
    }
    if (CODE_FENCES.has(info.toLowerCase())) {
      const lines = body.slice(i + 1, close).map((l) => ({ ...l, text: l.text.startsWith(indent) ? l.text.slice(indent.length) : l.text.trimStart() }));
      blocks.push(Object.assign(lines, { tsx: info.toLowerCase() === "tsx" }));
    }
    i = close;
  }
  return blocks;
}

function trimBlank(lines) {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].text.trim() === "") start++;
  while (end > start && lines[end - 1].text.trim() === "") end--;
  return lines.slice(start, end);
}

/**
 * The module an example compiles as, written at `target`: relative specifiers are re-pointed from the source
 * file's folder to the scratch folder; every line keeps its place.
 */
function moduleText(example, target) {
  const header = `// ${example.file}: @example at line ${example.tagLine} (generated by scripts/check-examples.mjs)`;
  const sourceDir = path.dirname(path.join(root, example.file));
  const repoint = (specifier) => {
    const moved = toPosix(path.relative(path.dirname(target), path.resolve(sourceDir, specifier)));
    return moved.startsWith(".") ? moved : `./${moved}`;
  };
  const body = example.code.map((l) =>
    l.text.replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.\.?\/[^"']*)\2/g, (_, lead, quote, spec) => `${lead}${quote}${repoint(spec)}${quote}`),
  );
  // moduleDetection "force" makes every example a module, imports or not.
  return [header, ...body, ""].join("\n");
}

/** tsconfig `paths` for every workspace entry point with a `@orpc-agent/source` condition. */
function sourcePaths(fromDir) {
  const paths = {};
  for (const pkg of packages) {
    const dir = path.join(packagesDir, pkg);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === "object" && target !== null ? target["@orpc-agent/source"] : undefined;
      if (typeof source !== "string" || !manifest.name) continue;
      const specifier = subpath === "." ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, "")}`;
      paths[specifier] = [toPosix(path.relative(fromDir, path.join(dir, source)))];
    }
  }
  return paths;
}

/** Writes every example and the tsconfig that lists them, then compiles them as one program. */
function typecheck(list) {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
  const byPath = new Map();
  for (const example of list) {
    const name = `${example.file.split("/").slice(3).join("_").replace(SOURCE, "")}.L${example.code[0].line}.${example.tsx ? "tsx" : "ts"}`;
    const target = path.join(packagesDir, example.pkg, SCRATCH, name);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, moduleText(example, target));
    byPath.set(target, example);
  }
  const configDir = path.join(root, SCRATCH);
  mkdirSync(configDir, { recursive: true });
  const base = path.join(root, "tsconfig.base.json");
  const config = {
    ...(existsSync(base) ? { extends: toPosix(path.relative(configDir, base)) } : {}),
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      moduleDetection: "force",
      skipLibCheck: true,
      noEmit: true,
      declaration: false,
      sourceMap: false,
      jsx: "react-jsx",
      paths: sourcePaths(configDir),
    },
    files: [...byPath.keys()].map((file) => toPosix(path.relative(configDir, file))),
  };
  const configFile = path.join(configDir, "tsconfig.json");
  writeFileSync(configFile, JSON.stringify(config, null, 2) + "\n");

  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => problems.push(`(tsconfig) ${message(d)}`) });
  if (!parsed) return;
  for (const d of parsed.errors) problems.push(`(tsconfig) TS${d.code} ${message(d)}`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  for (const d of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) problems.push(`(compiler) TS${d.code} ${message(d)}`);
  for (const [target, example] of byPath) {
    const source = program.getSourceFile(target);
    if (!source) {
      problems.push(`${example.file}:${example.tagLine} the example was not compiled`);
      continue;
    }
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      // Generated line n (0-based) is code line n - 1: the header comes first.
      const line = d.start === undefined ? example.tagLine : example.code[Math.min(Math.max(source.getLineAndCharacterOfPosition(d.start).line - 1, 0), example.code.length - 1)]?.line ?? example.tagLine;
      problems.push(`${example.file}:${line} (example at line ${example.tagLine}) TS${d.code} ${message(d)}`);
    }
  }
}

function message(d) {
  return ts.flattenDiagnosticMessageText(d.messageText, " ");
}

function relative(file) {
  return toPosix(path.relative(root, file));
}

function toPosix(p) {
  return p.split(path.sep).join("/");
}
