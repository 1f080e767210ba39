import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { AgentRuntime } from "@orpc-agent/core";
import { serveMCPStdio, type MCPStdioOptions } from "../../src/index.js";
import { closeAfterTest } from "./cleanup.js";

/**
 * `serveMCPStdio` over an in-memory pair, with a 2025-era SDK `Client` on the other end. The pair hands each message
 * over by reference, without JSON in between: what the client passes as arguments is what the server receives.
 * Closed after the test.
 */
export async function connectStdioInMemory<TContext>(runtime: AgentRuntime<TContext>, options: Omit<MCPStdioOptions<TContext>, "transport">): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveMCPStdio(runtime, { ...options, transport: serverSide as never });
  closeAfterTest(() => handle.close());
  const client = new Client({ name: "in-memory-stdio", version: "1.0.0" });
  await client.connect(clientSide);
  closeAfterTest(() => client.close());
  return client;
}
