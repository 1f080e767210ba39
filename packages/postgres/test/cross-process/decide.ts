// A deciding process: a manager approves or rejects through the application's own runtime, as an
// approvals page would, then exits. Usage: decide.ts <approvalId> <approved|rejected>; ORPC_TEST_SCHEMA as server.ts.
import { openApp } from "./app.js";

const [approvalId, status] = process.argv.slice(2);
const schema = process.env.ORPC_TEST_SCHEMA;
if (schema === undefined || approvalId === undefined || (status !== "approved" && status !== "rejected")) {
  throw new Error("usage: ORPC_TEST_SCHEMA=<schema> decide.ts <approvalId> <approved|rejected>");
}
const app = openApp({ schema });
const runtime = app.makeRuntime();
const decided = await runtime.approvals.decide(approvalId, { status, approver: { id: "u_priya", kind: "user" } });
await runtime.drainAudit();
await app.close();
process.stdout.write(`DECIDED ${decided.id} ${decided.status}\n`);
