import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { MCPServerHandle } from "../../src/v1/index.js";
import { closeAfterTest } from "./cleanup.js";

export type InMemorySession = {
  client: Client;
  /** The `authInfo` sent with every following message, as a transport that verified a new token would. */
  setAuth(authInfo: AuthInfo | undefined): void;
  close(): Promise<void>;
};

/**
 * Connects an SDK `Client` over `InMemoryTransport` (docs/architecture/spec/adapters.md#adapters-3-8): the client transport's `send` is wrapped so
 * each message carries `authInfo`, the way a verifying transport hands it to server handlers.
 * `via: "server"` connects `mcp.server` directly instead of `mcp.connect`.
 */
export async function connectInMemory(
  mcp: MCPServerHandle,
  authInfo?: AuthInfo,
  via: "connect" | "server" = "connect",
): Promise<InMemorySession> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  let current = authInfo;
  const send = clientTransport.send.bind(clientTransport);
  clientTransport.send = (message, options) => send(message, { ...options, authInfo: current });
  if (via === "server") await mcp.server.connect(serverTransport);
  else await mcp.connect(serverTransport);
  const client = new Client({ name: "mcp-adapter-test", version: "1.0.0" });
  await client.connect(clientTransport);
  const close = () => client.close();
  closeAfterTest(close);
  return { client, setAuth: (next) => void (current = next), close };
}

/** An `AuthInfo` as a verifier would return it; the token names the actor in these tests. */
export function tokenFor(token: string, extra: Partial<AuthInfo> = {}): AuthInfo {
  return { token, clientId: "test-client", scopes: [], ...extra };
}
