// `pnpm demo`: a governed support conversation, end to end, on the embedded database. No network, no server.
import { openStorage } from "../agent/storage.js";
import { printableSlackMessage } from "../notify/receiver.js";
import { runDemo } from "./flow.js";

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

const storage = await openStorage();
console.log(bold("oRPC Agent demo: a customer-support app whose procedures an AI agent calls under governance"));
console.log(`approvals and audit: ${storage.description}\n`);

let n = 0;
const started = performance.now();
const result = await runDemo(storage, (step) => {
  console.log(`${String(++n).padStart(2)}. ${step.title.padEnd(44)} ${bold(step.status)}`);
  if (step.detail) console.log(`    ${step.detail}`);
});

console.log(`\n${bold("Approvals receiver")} (${result.notifications.length} webhooks, each Standard Webhooks signature verified): the Slack messages it would post`);
for (const notification of result.notifications) {
  console.log(`${notification.webhookId}  ${notification.type}`);
  for (const line of printableSlackMessage(notification.slack)) console.log(`  ${line}`);
}

console.log(`\n${bold("Audit trail")} (${result.audit.length} events, no inputs or outputs recorded)`);
console.log(`${"time".padEnd(12)} ${"event".padEnd(30)} ${"actor".padEnd(9)} ${"capability".padEnd(24)} detail`);
for (const row of result.audit) {
  console.log(`${row.at.toISOString().slice(11, 23).padEnd(12)} ${row.type.padEnd(30)} ${row.actor.padEnd(9)} ${(row.capability ?? "").padEnd(24)} ${row.detail}`);
}
console.log(`\neffects: ${result.effects.refunds} refunds, ${result.effects.deletions} deletions; finished in ${((performance.now() - started) / 1000).toFixed(1)} s`);
await storage.close();
