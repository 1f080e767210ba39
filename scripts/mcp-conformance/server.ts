// The conformance fixture on loopback: the governed app behind createMCPHandler on 127.0.0.1, an ephemeral port,
// Host checked against the loopback names (dns-rebinding-protection). The suite sends no credentials, so the
// endpoint is the local-development one (allowUnauthenticated) and every request acts as one fixed user.
// Prints `listening <url>` once it accepts connections; stops on SIGTERM/SIGINT.
// Run from the repository root: node --conditions=@orpc-agent/source --import tsx scripts/mcp-conformance/server.ts
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMCPHandler } from "../../packages/mcp/src/index.js";
import { toNodeRequestListener } from "../../packages/mcp/src/node.js";
import { createConformanceApp } from "./fixture.js";

const { runtime } = createConformanceApp();
const handler = createMCPHandler(runtime, {
  allowUnauthenticated: true,
  allowedHosts: ["localhost", "127.0.0.1", "[::1]"],
  createContext: () => ({ actor: { id: "u_conformance", kind: "user" }, context: { tenant: "conformance" } }),
});
const server = createServer(toNodeRequestListener(handler));
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`);
});

const stop = () => {
  void handler.close().finally(() => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
