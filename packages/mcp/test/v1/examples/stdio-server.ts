// The v1 entry's runnable stdio example, spawned by test/v1/stdio.test.ts.
// Run from packages/mcp without a build: node --conditions=@orpc-agent/source --import tsx test/v1/examples/stdio-server.ts
import { os } from "@orpc/server";
import { z } from "zod";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { agentMeta, agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createMCPServer } from "../../../src/v1/index.js";

// #region readme
const ap = agentProcedure(os);
const notes = ["Buy milk", "Call the bank", "Milk the cow"];

const registry = createCapabilityRegistry({
  notes: {
    search: ap
      .input(z.object({ text: z.string() }))
      .meta(agentMeta({ description: "Find notes containing a text.", expose: { mcp: true }, sideEffect: "read", risk: "low" }))
      .handler(({ input }) => ({ notes: notes.filter((note) => note.toLowerCase().includes(input.text.toLowerCase())) })),
    clear: ap
      .meta(agentMeta({ description: "Delete every note.", expose: { mcp: true }, sideEffect: "destructive", risk: "high", approval: { required: true } }))
      .handler(() => ({ cleared: notes.splice(0).length })),
  },
});
const runtime = createAgentRuntime({ governance: defineGovernance({ registry }) });

// stdio carries no credentials: the local process owner is trusted, as one fixed least-privilege actor.
const mcp = createMCPServer(runtime, {
  createContext: () => ({ actor: { id: "local-user", kind: "user" }, context: {} }),
  approvals: { resumeTool: true },
});
await mcp.connect(new StdioServerTransport());
// #endregion readme
