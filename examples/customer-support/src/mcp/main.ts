// `pnpm mcp`: the app's MCP endpoint on loopback for any MCP client (2026-07-28 or 2025-era), on the embedded
// database (or DATABASE_URL). Prints the URL and the demo users' bearer tokens.
import { mcpTokens } from "../agent/people.js";
import { createSupportRuntime } from "../agent/runtime.js";
import { openStorage } from "../agent/storage.js";
import { createStore } from "../domain/store.js";
import { startMcpServer } from "./server.js";

const storage = await openStorage();
const { runtime, shutdown } = createSupportRuntime(storage);
const mcp = await startMcpServer(runtime, createStore(), Number(process.env.PORT ?? 3001));
console.log(`MCP endpoint: ${mcp.url}  (approvals and audit: ${storage.description})`);
for (const [token, actor] of Object.entries(mcpTokens)) console.log(`  Authorization: Bearer ${token}   acts as ${actor.id}`);
console.log("Ctrl-C to stop");
process.once("SIGINT", () => {
  void mcp.close().then(shutdown).then(() => storage.close()).then(() => process.exit(0));
});
