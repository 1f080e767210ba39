// A resuming process that dies between consumption and the strict `capability.started` write: it prints
// STARTING <approvalId> <executionId> at that moment and waits for its `kill -9`. Usage: consume-crash.ts <approvalId>.
import pg from "pg";
import { openConsumeApp } from "./consume-app.js";

const [approvalId] = process.argv.slice(2);
const schema = process.env.ORPC_TEST_SCHEMA;
if (schema === undefined || approvalId === undefined) throw new Error("usage: ORPC_TEST_SCHEMA=<schema> consume-crash.ts <approvalId>");
const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 2 });
const { runtime } = openConsumeApp({ schema, pool, crashAtStarted: true });
const result = await runtime.resume(approvalId, { context: {} });
// Reached only if the started write did not hang: the parent test fails on this line.
process.stdout.write(`RESUMED ${result.status}\n`);
