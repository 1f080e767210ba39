#!/usr/bin/env node
// Reads Stryker's JSON report (reports/mutation/mutation.json, written by `pnpm test:mutation`) and prints, as
// Markdown for packages/core/MUTATION.md: the score per area and every surviving or uncovered mutant with its place.
import { readFileSync } from "node:fs";

const REPORT = process.argv[2] ?? "reports/mutation/mutation.json";
const report = JSON.parse(readFileSync(REPORT, "utf8"));
const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

/** runtime, policy or approvals: the three areas the issue names. */
const areaOf = (path) => path.match(/packages\/core\/src\/([^/]+)\//)?.[1] ?? "other";

const areas = new Map();
const survivors = [];
for (const [path, file] of Object.entries(report.files)) {
  const area = areaOf(path);
  const tally = areas.get(area) ?? { detected: 0, undetected: 0, ignored: 0 };
  const lines = file.source.split("\n");
  for (const mutant of file.mutants) {
    if (DETECTED.has(mutant.status)) tally.detected++;
    else if (UNDETECTED.has(mutant.status)) {
      tally.undetected++;
      const { line, column } = mutant.location.start;
      survivors.push({ place: `${path.replace("packages/core/src/", "")}:${line}:${column}`, mutant, original: lines[line - 1]?.trim() });
    } else tally.ignored++;
  }
  areas.set(area, tally);
}

const pct = (t) => ((100 * t.detected) / (t.detected + t.undetected)).toFixed(1);
const total = [...areas.values()].reduce((a, t) => ({ detected: a.detected + t.detected, undetected: a.undetected + t.undetected, ignored: a.ignored + t.ignored }), {
  detected: 0,
  undetected: 0,
  ignored: 0,
});

console.log("| area | detected | undetected | score |\n|---|---|---|---|");
for (const [area, t] of [...areas].sort()) console.log(`| ${area} | ${t.detected} | ${t.undetected} | ${pct(t)}% |`);
console.log(`| **all** | ${total.detected} | ${total.undetected} | **${pct(total)}%** |`);
if (total.ignored > 0) console.log(`\n(${total.ignored} mutants were not run: compile errors or ignored.)`);

console.log(`\n${survivors.length} undetected mutants:\n`);
const cell = (text) => String(text).replaceAll("|", "\\|").replaceAll("\n", " ").slice(0, 90);
console.log("| place | mutator | status | replacement | original line |\n|---|---|---|---|---|");
for (const { place, mutant, original } of survivors) {
  console.log(`| \`${place}\` | ${mutant.mutatorName} | ${mutant.status} | \`${cell(mutant.replacement ?? "")}\` | \`${cell(original ?? "")}\` |`);
}
