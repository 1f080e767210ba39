// Capability routers for the remote attacks: built without the in-memory journal warning, and served the way an
// application serves them, through oRPC's RPCHandler under /rpc on a loopback port.
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

/** Builds a capability router without its warning that the in-memory journal is not durable: these tests know. */
export function quietly<T>(build: () => T): T {
  const warn = console.warn;
  console.warn = () => {};
  try {
    return build();
  } finally {
    console.warn = warn;
  }
}
