// `pnpm demo:web`: the approvals page, on the embedded database (or DATABASE_URL).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createStore } from "../domain/store.js";
import { createSupportRuntime } from "../agent/runtime.js";
import { openStorage } from "../agent/storage.js";
import { createApprovalsApp } from "./approvals-app.js";

const storage = await openStorage();
const { runtime, shutdown } = createSupportRuntime(storage);
const server = createServer(createApprovalsApp(runtime, createStore()));
const port = Number(process.env.PORT ?? 3000);
server.listen(port, "127.0.0.1", () => {
  const { port: actual } = server.address() as AddressInfo;
  console.log(`approvals page: http://127.0.0.1:${actual}/?as=u_priya  (approvals and audit: ${storage.description})`);
  console.log("the agent files its requests as Dana (support); sign in as Dana to see that she cannot approve her own; Ctrl-C to stop");
});
process.once("SIGINT", () => {
  server.close();
  void shutdown().then(() => storage.close()).then(() => process.exit(0));
});
