#!/usr/bin/env node
// One-off rewrite of the old spec citations in comments (file name plus section sign, or the sign alone) into paths
// inside the repository (`docs/architecture/spec/<page>.md#<anchor>`), in place, so that
// scripts/check-citations.mjs passes. Only the citation's own characters change: the words around it, the comment
// and the line structure stay as they were. A citation whose new anchor does not exist is left alone and listed.
//
//   node scripts/migrate-citations.mjs [root] [--dry-run]     root defaults to this repository
//
// Prints "migrate:citations: N found, M rewritten in F file(s), U unresolved"; exit 1 when U > 0. --dry-run writes
// nothing and prints each rewrite as `file:line old -> new`.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readAnchors, resolves, scanTree } from "./spec-citations.mjs";

const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const unknown = args.filter((a) => a.startsWith("--") && a !== "--dry-run");
if (unknown.length > 0) {
  console.error(`migrate:citations: unknown flag ${unknown[0]} (expected --dry-run)`);
  process.exit(2);
}
const root = path.resolve(args.find((a) => !a.startsWith("--")) ?? path.join(path.dirname(fileURLToPath(import.meta.url)), ".."));

const anchors = readAnchors(root);
const old = scanTree(root).filter((c) => c.kind === "old");
const unresolved = [];
const byFile = new Map();
for (const c of old) {
  const [page, anchor] = c.target.split("#");
  if (!resolves(anchors, page, anchor)) {
    unresolved.push(`${c.file}:${c.line} "${c.text}" -> ${c.target}: no such anchor`);
    continue;
  }
  if (!byFile.has(c.file)) byFile.set(c.file, []);
  byFile.get(c.file).push(c);
}

let rewritten = 0;
for (const [file, citations] of byFile) {
  const full = path.join(root, file);
  let text = readFileSync(full, "utf8");
  // From the end, so that earlier offsets stay valid.
  for (const c of [...citations].sort((a, b) => b.offset - a.offset)) {
    if (dryRun) console.log(`${file}:${c.line} ${c.text} -> ${c.target}`);
    text = text.slice(0, c.offset) + c.target + text.slice(c.offset + c.length);
    rewritten++;
  }
  if (!dryRun) writeFileSync(full, text);
}

console.log(`migrate:citations: ${old.length} found, ${rewritten} rewritten in ${byFile.size} file(s), ${unresolved.length} unresolved${dryRun ? " (dry run)" : ""}`);
for (const line of unresolved) console.error(`  ${line}`);
process.exit(unresolved.length > 0 ? 1 : 0);
