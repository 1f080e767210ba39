// `pnpm start`: serves the page built by `vite build` (dist/client) with the chat, the board and the approvals.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createBoardRuntime } from "../agent/runtime.js";
import { openStorage } from "../agent/storage.js";
import { createStore } from "../domain/store.js";
import { createBoardApp } from "./app.js";

const clientDir = process.env.CLIENT_DIR ?? fileURLToPath(new URL("../../dist/client", import.meta.url));
const storage = await openStorage();
const { runtime, shutdown } = createBoardRuntime(storage);
const app = createBoardApp({ runtime, store: createStore(), clientDir });
const server = createServer(app.handler);
server.listen(Number(process.env.PORT ?? 3100), "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  // The first line is the URL; tests read it to find the port.
  console.log(`Task board on http://127.0.0.1:${port}/?as=u_ada (Ada asks the agent; open ?as=u_ben in another window to approve)`);
  console.log(`Approvals and audit in ${storage.description}. Ctrl-C stops it.`);
});

async function stop(): Promise<void> {
  app.close();
  server.close();
  await shutdown();
  await storage.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
