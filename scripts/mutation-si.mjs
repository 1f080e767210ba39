#!/usr/bin/env node
// Shows that every SI-n test family can fail on its own: for each family, takes mutants Stryker killed in the
// family's own source files (reports/mutation/mutation.json, from `pnpm test:mutation`), applies one at a time to
// packages/core/src, and runs only the tests named "SI-n: …". The first mutant that turns them red is the
// family's witness. Sources are restored after every run, also on Ctrl-C. Prints a Markdown table.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const REPORT = "reports/mutation/mutation.json";
const SRC = "packages/core/src/";
const MAX_TRIES = 6;

/** Where each invariant is enforced (docs/architecture/spec/core.md#core-14); a witness must come from one of these files. */
const OWN_FILES = {
  1: ["runtime/plan.ts", "runtime/invoke.ts", "runtime/describe.ts"],
  2: ["runtime/stages/policies.ts", "runtime/invoke.ts", "runtime/resume.ts", "runtime/describe.ts"],
  3: ["runtime/stages/call-context.ts", "runtime/invoke.ts", "runtime/resume.ts", "runtime/options.ts"],
  4: ["runtime/approvals/runtime-approvals.ts", "runtime/resume.ts", "runtime/stages/approval-gate.ts"],
  5: ["approvals/canonical-json.ts", "approvals/hash.ts", "runtime/stages/input-hash.ts", "runtime/resume.ts", "approvals/in-memory-coordinator.ts"],
  6: ["runtime/stages/policies.ts", "runtime/stages/validate-input.ts", "policy/evaluate-batch.ts"],
  7: ["policy/evaluate-batch.ts", "policy/is-decision.ts", "runtime/stages/policies.ts", "runtime/describe.ts"],
  8: ["runtime/invoke.ts", "runtime/finish.ts", "runtime/resume.ts", "runtime/execution.ts"],
  9: ["runtime/finish.ts", "runtime/unwrap.ts", "runtime/stages/attempt.ts", "runtime/execute-tail.ts"],
  10: ["runtime/stages/redact-output.ts", "runtime/finish.ts", "runtime/execution.ts", "runtime/describe.ts", "runtime/execute-tail.ts"],
  11: ["runtime/stages/execute-with-retry.ts", "runtime/plan.ts"],
  12: ["runtime/stages/attempt.ts", "runtime/stages/controls.ts", "runtime/stages/execute-with-retry.ts"],
};

const report = JSON.parse(readFileSync(REPORT, "utf8"));
const testName = new Map();
const familyFiles = new Map();
for (const [file, { tests }] of Object.entries(report.testFiles ?? {})) {
  for (const test of tests) {
    testName.set(test.id, test.name);
    const n = test.name.match(/SI-(\d+):/)?.[1];
    if (n !== undefined) (familyFiles.get(+n) ?? familyFiles.set(+n, new Set()).get(+n)).add(file);
  }
}
const familyOf = (testId) => Number(testName.get(testId)?.match(/SI-(\d+):/)?.[1] ?? NaN);

const originals = new Map();
const restoreAll = () => {
  for (const [path, text] of originals) writeFileSync(path, text);
};
process.on("SIGINT", () => {
  restoreAll();
  process.exit(130);
});

function runFamily(n) {
  const files = [...(familyFiles.get(n) ?? [])];
  const result = spawnSync("npx", ["vitest", "run", "--project", "core", "-t", `SI-${n}:`, ...files], { encoding: "utf8" });
  return result.status === 0;
}

function applied(path, mutant, run) {
  const source = readFileSync(path, "utf8");
  originals.set(path, source);
  const lines = source.split("\n");
  const offset = (pos) => lines.slice(0, pos.line - 1).reduce((sum, line) => sum + line.length + 1, 0) + pos.column - 1;
  const { start, end } = mutant.location;
  writeFileSync(path, source.slice(0, offset(start)) + mutant.replacement + source.slice(offset(end)));
  try {
    return run();
  } finally {
    writeFileSync(path, source);
    originals.delete(path);
  }
}

// `node scripts/mutation-si.mjs 6 10` checks only those families.
const only = process.argv.slice(2).map(Number);
const rows = [];
for (const n of Object.keys(OWN_FILES).map(Number)) {
  if (only.length > 0 && !only.includes(n)) continue;
  if (!runFamily(n)) {
    rows.push(`| SI-${n} | — | the family fails without any mutant: fix that first | |`);
    continue;
  }
  // Killed mutants of the family's own files that its tests reach; those an SI-n test killed first go first.
  const candidates = [];
  for (const own of OWN_FILES[n]) {
    const file = report.files[SRC + own];
    for (const mutant of file?.mutants ?? []) {
      if (mutant.status !== "Killed" || !(mutant.coveredBy ?? []).some((id) => familyOf(id) === n)) continue;
      candidates.push({ own, mutant, first: (mutant.killedBy ?? []).some((id) => familyOf(id) === n) });
    }
  }
  // Pointed mutants (a flipped condition, operator or literal) make better witnesses than an emptied block or a
  // dropped `?.`, which mostly crash whatever runs through them.
  const blunt = (c) => Number(["BlockStatement", "ObjectLiteral", "OptionalChaining"].includes(c.mutant.mutatorName));
  candidates.sort((a, b) => Number(b.first) - Number(a.first) || blunt(a) - blunt(b));
  let witness;
  for (const candidate of candidates.slice(0, MAX_TRIES)) {
    if (applied(SRC + candidate.own, candidate.mutant, () => !runFamily(n))) {
      witness = candidate;
      break;
    }
  }
  if (witness === undefined) {
    rows.push(`| SI-${n} | — | no witness among ${Math.min(candidates.length, MAX_TRIES)} of ${candidates.length} candidates | |`);
    continue;
  }
  const { own, mutant } = witness;
  const place = `${own}:${mutant.location.start.line}`;
  const killers = (mutant.killedBy ?? []).map((id) => testName.get(id)).filter(Boolean);
  rows.push(`| SI-${n} | \`${place}\` ${mutant.mutatorName} → \`${mutant.replacement.replaceAll("|", "\\|").replaceAll("\n", " ").slice(0, 60)}\` | only the SI-${n} tests run: red | ${killers[0] ?? ""} |`);
  console.error(`SI-${n}: witness at ${place}`);
}

console.log("| family | mutant (file:line, mutator → replacement) | check | first killer in the Stryker run |\n|---|---|---|---|");
for (const row of rows) console.log(row);
