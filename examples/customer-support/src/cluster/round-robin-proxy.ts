// The load balancer of `pnpm mcp:cluster`: one loopback port in front of every instance. Each request goes to the
// next instance in turn, so two requests of one client (a call and its resume, a task and its poll) land on
// different processes. `/mcp` and the protected-resource document go to an instance's MCP server, everything else
// to its approvals page. Each answer names the instance that served it (`x-served-by`), for people and tests.
import { Agent, createServer, request as forward, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type Upstream = { name: string; mcpPort: number; webPort: number };

export type RoundRobinProxy = { url: URL; close(): Promise<void> };

const toMcp = (req: IncomingMessage) => {
  const path = (req.url ?? "/").split("?")[0]!;
  return path === "/mcp" || path.startsWith("/.well-known/oauth-protected-resource");
};

/** Balances over `upstreams` as the array stands at each request: the caller may fill it after the proxy listens. */
export async function startRoundRobinProxy(upstreams: readonly Upstream[], port = 0): Promise<RoundRobinProxy> {
  const agent = new Agent({ keepAlive: true });
  let next = 0;
  const server = createServer((req, res) => {
    const target = upstreams[next++ % upstreams.length];
    // Before the instances are up (their public URL is this balancer's, so it listens first): nobody to answer.
    if (target === undefined) return void res.writeHead(503).end();
    const upstream = forward(
      { host: "127.0.0.1", port: toMcp(req) ? target.mcpPort : target.webPort, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "x-served-by": target.name });
        answer.pipe(res);
      },
    );
    // What a real balancer answers when the instance it picked does not: a 502, or a cut stream once it started.
    upstream.on("error", () => (res.headersSent ? res.destroy() : res.writeHead(502, { "x-served-by": target.name }).end()));
    // A client that hangs up early (an SSE stream it stops reading) releases the instance's side too.
    res.on("close", () => void (res.writableFinished || upstream.destroy()));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`),
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
