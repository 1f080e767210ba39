#!/usr/bin/env node
// Checks that every spec citation in a comment points at a rule the repository holds, so that a reader can follow
// it: a path into docs/architecture whose page exists and, after `#`, an anchor that page defines.
//
//   node scripts/check-citations.mjs [root]     root defaults to this repository
//
// Reads the comments of source, test, example and script files (TypeScript and JavaScript through the TypeScript
// parser, shell scripts by their `#` comments; scripts/spec-citations.mjs says which). Exit 0 and
// "check:citations: ok (…)" when every citation resolves; exit 1 listing `file:line problem` per citation that does
// not, and per citation still in the old form, which names a spec file outside the repository (each with the path
// that replaces it; scripts/migrate-citations.mjs rewrites them all); exit 2 when root has no docs/architecture.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readAnchors, resolves, scanTree } from "./spec-citations.mjs";

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));
if (!existsSync(path.join(root, "docs/architecture"))) {
  console.error(`check:citations: no docs/architecture under ${root}`);
  process.exit(2);
}

const anchors = readAnchors(root);
const citations = scanTree(root);
const problems = [];
for (const c of citations) {
  const where = `${c.file}:${c.line}`;
  if (c.kind === "old") {
    const [page, anchor] = c.target.split("#");
    const fix = resolves(anchors, page, anchor) ? `cite ${c.target}` : `${c.target} does not exist either: add the anchor or cite another rule`;
    problems.push(`${where} "${c.text}" names a spec outside the repository; ${fix}`);
  } else if (!anchors.has(c.page)) {
    problems.push(`${where} ${c.text}: no page ${c.page}`);
  } else if (c.anchor !== undefined && !resolves(anchors, c.page, c.anchor)) {
    problems.push(`${where} ${c.text}: ${c.page} has no anchor #${c.anchor}`);
  }
}

const files = new Set(citations.map((c) => c.file)).size;
if (problems.length > 0) {
  console.error(`check:citations: ${problems.length} of ${citations.length} citation(s) do not resolve`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`check:citations: ok (${citations.length} citation(s) in ${files} file(s))`);
