// SI-6 on every surface (issue 43, finding 4): the inputs of support/hostile-inputs.ts through the AI SDK tool of
// toAISDKTools (the real `ai` package's tool object, as the SDK calls `execute`), through an MCP tools/call on an
// in-process transport (it hands the arguments over by reference, so a cycle or a Proxy reaches the server), and,
// where JSON cannot carry them, 100 000 levels of nesting as raw bytes to the remote capability router on loopback.
// Every one answers INPUT_INVALID in the surface's own envelope; no policy and no handler runs.
import { agentMeta, allow, createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy, type Actor } from "@orpc-agent/core";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import { createCapabilityRouter, createInMemoryInvocationJournal, createInvocationService } from "@orpc-agent/core/server";
import { toAISDKTools } from "@orpc-agent/ai-sdk";
import { createMCPServer } from "@orpc-agent/mcp/v1";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { connectInMemory } from "../../packages/mcp/test/support/in-memory.js";
import { connectStdioInMemory } from "../../packages/mcp/test/support/in-memory-stdio.js";
import { HOSTILE_INPUTS, type Hostile } from "./support/hostile-inputs.js";
import { base, dana, meta } from "./support/runtime.js";
import { quietly } from "../../packages/ai-sdk/test/support/remote-server.js";
import { serveOverRpc } from "./support/rpc-server.js";

type Ran = { handler: number; policies: number };

/** `op` without an input schema, watched by an enforced policy, exposed on every surface. */
function governed(schema?: z.ZodType) {
  const ran: Ran = { handler: 0, policies: 0 };
  const agent = base.meta(agentMeta(meta({ expose: { direct: true, aiSdk: true, mcp: true } })));
  const op = (schema === undefined ? agent : agent.input(schema)).handler(() => (ran.handler++, "ran"));
  const watch = definePolicy("watch", () => (ran.policies++, allow()));
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ op }), policies: [watch] }), audit: () => {} });
  return { runtime, ran };
}

type Envelope = { status: string; error?: { code: string; message: string; details?: { issues: { path: string[]; message: string }[] } } };

function expectInputInvalid(envelope: Envelope, hostile: Hostile, ran: Ran, pathPrefix: string[] = []): void {
  expect(envelope.status).toBe("error");
  expect(envelope.error?.code).toBe("INPUT_INVALID");
  expect(envelope.error?.details?.issues).toHaveLength(1);
  if (hostile.path !== undefined) expect(envelope.error?.details?.issues[0]?.path).toEqual([...pathPrefix, ...hostile.path]);
  expect(ran).toEqual({ handler: 0, policies: 0 });
  expect(hostile.reads()).toBeLessThanOrEqual(hostile.maxReads);
}

describe("AI SDK tools (SI-6)", () => {
  it.each(HOSTILE_INPUTS)("SI-6: the tool's execute answers INPUT_INVALID for %s", async (_name, make) => {
    const { runtime, ran } = governed();
    const tools = await toAISDKTools(runtime, { actor: dana, context: {} });
    const execute = tools.op!.execute as unknown as (input: unknown, options: { toolCallId: string; messages: [] }) => Promise<Envelope>;
    const hostile = make();
    expectInputInvalid(await execute(hostile.input, { toolCallId: "call-1", messages: [] }), hostile, ran);
  });
});

describe("MCP tools/call on an in-process transport (SI-6)", () => {
  const entries: [string, (runtime: ReturnType<typeof governed>["runtime"]) => Promise<{ callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown> }>][] = [
    ["serveMCPStdio (SDK v2)", (runtime) => connectStdioInMemory(runtime, { createContext: () => ({ actor: dana, context: {} }) })],
    ["the v1 entry", async (runtime) => (await connectInMemory(createMCPServer(runtime, { createContext: () => ({ actor: dana, context: {} }) }))).client],
  ];

  for (const [entry, connect] of entries) {
    it.each(HOSTILE_INPUTS)(`SI-6: ${entry}: an argument holding %s answers INPUT_INVALID`, async (_name, make) => {
      const { runtime, ran } = governed();
      const client = await connect(runtime);
      const hostile = make();
      const result = (await client.callTool({ name: "op", arguments: { v: hostile.input } })) as { structuredContent?: unknown; content: { text: string }[] };
      const envelope = (result.structuredContent ?? JSON.parse(result.content[0]!.text)) as Envelope;
      expectInputInvalid(envelope, hostile, ran, ["v"]);
    });
  }
});

describe("the remote capability router (SI-6)", () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  async function serve(runtime: ReturnType<typeof governed>["runtime"]) {
    const router = quietly(() =>
      createCapabilityRouter<Record<string, never>, Record<string, never>>({
        service: createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "si6", revision: "r1" }),
        runtime,
        surface: "aiSdk",
        resolve: async () => ({ actor: dana as Actor, context: {} }),
        authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
      }),
    );
    return serveOverRpc(router, closers);
  }

  for (const [kind, open, close] of [["objects", '{"d":', "}"], ["arrays", "[", "]"]] as const) {
    it(`SI-6: 100 000 levels of nested ${kind} in the request bytes answer INPUT_INVALID`, async () => {
      const { runtime, ran } = governed(z.object({ v: z.any() }));
      const url = await serve(runtime);
      const PLACEHOLDER = '"__deep__"';
      const deep = open.repeat(100_000) + "1" + close.repeat(100_000);
      // The real client writes the request; its input is swapped for the deep text on the way to the socket.
      const client = createHTTPCapabilityClient({
        url,
        fetch: async (input, init) => {
          const request = input instanceof Request ? input : new Request(input, init);
          const body = (await request.text()).replace(PLACEHOLDER, deep);
          expect(body.length).toBeGreaterThan(deep.length);
          return fetch(request.url, { method: request.method, headers: request.headers, body });
        },
      });
      const result = await client.invoke({ capabilityId: "op", input: { v: "__deep__" }, invocationId: `inv-si6-${kind}` });
      expect(result.status).toBe("failed");
      expect((result as { error: { code: string } }).error.code).toBe("INPUT_INVALID");
      expect(ran).toEqual({ handler: 0, policies: 0 });
    });
  }
});
