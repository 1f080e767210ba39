// The load balancer of the suite: a node:http reverse proxy that sends each request to the next instance in turn.
// `pin` sends everything to one instance (to place a step on a chosen instance), `remove` takes a dead instance out
// of the rotation as a health check would. `served` records which instance answered each request.
import { createServer, request as forward, Agent, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Upstream = { name: string; port: number };

export type RoundRobinProxy = {
  url: string;
  /** Instance names in the order requests reached them. */
  served: string[];
  pin: (name: string | undefined) => void;
  remove: (name: string) => void;
  add: (upstream: Upstream) => void;
  close: () => Promise<void>;
};

export async function startProxy(): Promise<RoundRobinProxy> {
  const upstreams: Upstream[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const served: string[] = [];
  let next = 0;
  let pinned: string | undefined;

  const pick = (): Upstream | undefined => {
    if (pinned !== undefined) return upstreams.find((u) => u.name === pinned);
    if (upstreams.length === 0) return undefined;
    return upstreams[next++ % upstreams.length];
  };

  const server: Server = createServer((req, res) => {
    const target = pick();
    if (target === undefined) return void res.writeHead(503).end();
    served.push(target.name);
    const upstream = forward({ host: "127.0.0.1", port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    });
    // An instance that dies mid-request: a real balancer answers 502 once it cannot get a (complete) answer.
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.on("aborted", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    pin: (name) => void (pinned = name),
    remove: (name) => {
      const index = upstreams.findIndex((u) => u.name === name);
      if (index >= 0) upstreams.splice(index, 1);
    },
    add: (upstream) => void upstreams.push(upstream),
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
