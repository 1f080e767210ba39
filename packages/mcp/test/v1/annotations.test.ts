// docs/architecture/spec/adapters.md#adapters-3-2: annotations are hints derived from sideEffect/idempotent, per-key meta overrides win,
// "meta-only" sends the meta object alone, and an empty result omits the field (docs/architecture/spec/adapters.md#adapters-3-10 item 7).
import { describe, expect, it } from "vitest";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentMeta } from "@orpc-agent/core";
import { createMCPServer, type MCPServerOptions } from "../../src/v1/index.js";
import { dana } from "../support/app.js";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { connectInMemory } from "../support/in-memory.js";
import { ap } from "../support/orpc.js";

closeEverythingAfterEachTest();

function cap(overrides: Partial<AgentMeta>) {
  return ap.meta(agentMeta({ description: "A capability.", expose: { mcp: true }, sideEffect: "read", risk: "low", ...overrides })).handler(() => ({}));
}

const runtime = createAgentRuntime({
  audit: () => undefined,
  governance: defineGovernance({
    registry: createCapabilityRegistry({
      none: cap({ sideEffect: "none" }),
      read: cap({ sideEffect: "read", risk: "critical" }),
      write: cap({ sideEffect: "write" }),
      writeIdempotent: cap({ sideEffect: "write", idempotent: true }),
      destructive: cap({ sideEffect: "destructive" }),
      destructiveIdempotent: cap({ sideEffect: "destructive", idempotent: true }),
      external: cap({ sideEffect: "external" }),
      externalIdempotent: cap({ sideEffect: "external", idempotent: true }),
      overridden: cap({ sideEffect: "external", adapters: { mcp: { annotations: { title: "Send mail", openWorldHint: false, destructiveHint: false } } } }),
    }),
  }),
});

async function annotationsByName(annotations?: MCPServerOptions["annotations"]) {
  const mcp = createMCPServer(runtime, { createContext: () => ({ actor: dana, context: {} }), annotations });
  const { client } = await connectInMemory(mcp);
  const { tools } = await client.listTools();
  return Object.fromEntries(tools.map((tool) => [tool.name, "annotations" in tool ? tool.annotations : "(omitted)"]));
}

describe("tool annotations", () => {
  it('"derive" (the default) follows the sideEffect table; risk is not mapped', async () => {
    const ro = { readOnlyHint: true, openWorldHint: false };
    const rw = (destructiveHint: boolean, idempotentHint: boolean, openWorldHint: boolean) => ({
      readOnlyHint: false,
      destructiveHint,
      idempotentHint,
      openWorldHint,
    });
    expect(await annotationsByName()).toEqual({
      none: ro,
      read: ro,
      write: rw(false, false, false),
      writeIdempotent: rw(false, true, false),
      destructive: rw(true, false, false),
      destructiveIdempotent: rw(true, true, false),
      external: rw(true, false, true),
      externalIdempotent: rw(true, true, true),
      overridden: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false, title: "Send mail" },
    });
    expect(await annotationsByName("derive")).toEqual(await annotationsByName());
  });

  it('"meta-only" sends only meta.adapters.mcp.annotations, and omits the field when there are none', async () => {
    const byName = await annotationsByName("meta-only");
    expect(byName.overridden).toEqual({ title: "Send mail", openWorldHint: false, destructiveHint: false });
    for (const [name, annotations] of Object.entries(byName)) if (name !== "overridden") expect(annotations, name).toBe("(omitted)");
  });
});
