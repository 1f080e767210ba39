// `pnpm mcp`: the app's MCP endpoint on loopback for any MCP client (2026-07-28 or 2025-era), with the approvals
// page beside it in the same process (one owner for the embedded database, or DATABASE_URL). Prints both URLs and
// the demo users' bearer tokens.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mcpTokens } from "../agent/people.js";
import { createSupportRuntime } from "../agent/runtime.js";
import { openStorage } from "../agent/storage.js";
import { createStore } from "../domain/store.js";
import { createApprovalsApp } from "../web/approvals-app.js";
import { startMcpServer } from "./server.js";

const storage = await openStorage();
const { runtime, shutdown } = createSupportRuntime(storage);
const store = createStore();
const web = createServer(createApprovalsApp(runtime, store));
await new Promise<void>((resolve) => web.listen(Number(process.env.WEB_PORT ?? 3000), "127.0.0.1", resolve));
const page = new URL(`http://127.0.0.1:${(web.address() as AddressInfo).port}/`);
const mcp = await startMcpServer(runtime, store, Number(process.env.PORT ?? 3001), { approvalsPage: page });
console.log(`MCP endpoint: ${mcp.url}  (approvals and audit: ${storage.description})`);
console.log(`approvals page: ${page.href}?as=u_priya  (calls that need approval link here; approvals_resume completes them)`);
for (const [token, actor] of Object.entries(mcpTokens)) console.log(`  Authorization: Bearer ${token}   acts as ${actor.id}`);
console.log("Ctrl-C to stop");
process.once("SIGINT", () => {
  web.close();
  void mcp.close().then(shutdown).then(() => storage.close()).then(() => process.exit(0));
});
