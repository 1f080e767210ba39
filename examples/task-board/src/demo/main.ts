// `pnpm demo`: the task board's Mastra agent under governance, in the terminal. No network, no API key, no server.
import { openStorage } from "../agent/storage.js";
import { runDemo } from "./flow.js";

const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);

const storage = await openStorage();
console.log(bold("oRPC Agent demo: a task board whose Mastra agent calls governed oRPC procedures"));
console.log(`approvals and audit: ${storage.description}\n`);

let n = 0;
const result = await runDemo(storage, (step) => {
  console.log(`${String(++n).padStart(2)}. ${step.title.padEnd(46)} ${bold(step.status)}`);
  if (step.detail) console.log(`    ${step.detail}`);
});

const counts = new Map<string, number>();
for (const row of result.audit) counts.set(row.type, (counts.get(row.type) ?? 0) + 1);
console.log(`\n${bold("Audit trail")}: ${result.audit.length} events (${[...counts].map(([type, count]) => `${type} ×${count}`).join(", ")})`);
console.log(`board: "Rotate the on-call keys" is ${result.keysStatus}; the Ops board ${result.opsBoardExists ? "still exists" : "is gone"}; effects ${JSON.stringify(result.effects)}`);
await storage.close();
