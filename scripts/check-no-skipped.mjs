#!/usr/bin/env node
// Fails when a Vitest JSON report (ORPC_AGENT_TEST_REPORT, written by the root config) counts a skipped or todo
// test, or ran none: the README's test command must run the whole suite (issue 27). Usage: check-no-skipped.mjs <report.json>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** The skipped/todo tests of a report, by file and title, and its totals. */
export function skippedTests(report) {
  const skipped = [];
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== "passed" && test.status !== "failed") skipped.push(`${file.name}: ${test.fullName} (${test.status})`);
    }
  }
  return { total: report.numTotalTests ?? 0, pending: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0), skipped };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const path = process.argv[2];
  if (path === undefined) {
    console.error("usage: check-no-skipped.mjs <vitest-json-report>");
    process.exit(2);
  }
  const { total, pending, skipped } = skippedTests(JSON.parse(readFileSync(path, "utf8")));
  if (total === 0) {
    console.error(`check-no-skipped: ${path} reports no test at all`);
    process.exit(1);
  }
  if (pending > 0 || skipped.length > 0) {
    console.error(`check-no-skipped: ${Math.max(pending, skipped.length)} of ${total} tests did not run:\n${skipped.join("\n")}`);
    process.exit(1);
  }
  console.log(`check-no-skipped: all ${total} tests ran`);
}
