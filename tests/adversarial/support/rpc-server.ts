// A capability router served the way an application serves it: oRPC's RPCHandler under /rpc on a loopback port.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { AnyRouter } from "@orpc/server";
import { RPCHandler } from "@orpc/server/node";

/**
 * Serves `router` as `agent` and returns the /rpc URL; its close is pushed onto `closers`, for the file's afterEach.
 * `contextOf` builds each request's context (what the router's resolve reads).
 */
export async function serveOverRpc(
  router: AnyRouter,
  closers: (() => Promise<void>)[],
  contextOf: (req: IncomingMessage) => Record<string, unknown> = () => ({}),
): Promise<string> {
  const handler = new RPCHandler({ agent: router });
  const server = createServer((req, res) => {
    void handler.handle(req, res, { prefix: "/rpc", context: contextOf(req) }).then(({ matched }) => {
      if (!matched) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
}
