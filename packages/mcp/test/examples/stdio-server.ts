// The README's example on the v2 SDK (between the region markers, verbatim), spawned by test/stdio/stdio.test.ts.
// Run from packages/mcp without a build: node --conditions=@orpc-agent/source --import tsx test/examples/stdio-server.ts
import { os } from "@orpc/server";
import { z } from "zod";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { serveMCPStdio } from "../../src/index.js";

// #region readme
const ap = agentProcedure(os);
const notes = ["Buy milk", "Call the bank", "Milk the cow"];

const registry = createCapabilityRegistry({
  notes: {
    search: ap
      .input(z.object({ text: z.string() }))
      .meta({ agent: { description: "Find notes containing a text.", expose: { mcp: true }, sideEffect: "read", risk: "low" } })
      .handler(({ input }) => ({ notes: notes.filter((note) => note.toLowerCase().includes(input.text.toLowerCase())) })),
    clear: ap
      .meta({
        agent: { description: "Delete every note.", expose: { mcp: true }, sideEffect: "destructive", risk: "high", approval: { required: true } },
      })
      .handler(() => ({ cleared: notes.splice(0).length })),
  },
});
const runtime = createAgentRuntime({ governance: defineGovernance({ registry }) });

// stdio carries no credentials: the local process owner is trusted, as one fixed least-privilege actor.
// 2026-07-28 clients and 2025-era ones (initialize) are both served.
const handle = serveMCPStdio(runtime, {
  createContext: () => ({ actor: { id: "local-user", kind: "user" }, context: {} }),
  approvals: { resumeTool: true },
});
process.on("SIGINT", () => void handle.close());
// #endregion readme
