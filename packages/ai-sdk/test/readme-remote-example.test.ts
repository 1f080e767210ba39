// The README's remote example is this region, verbatim except for two lines the last test below accounts for:
// the package imports itself by path (its tsconfig cannot resolve its own name), and the server URL comes from
// the loopback server this test starts instead of a public host.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp, context as appContext, dana, priya } from "./support/app.js";
import { startCapabilityServer, type CapabilityServer } from "./support/remote-server.js";
import { scriptedModel, text, toolCall } from "./support/scripted-model.js";

// --- README remote example: start
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import { toAISDKTools, type RemoteAISDKToolResult } from "../src/index.js";

/** Your durable store: returns the id committed for `key`, committing a fresh one first if there is none. */
export type InvocationIds = { allocate(key: string): Promise<string> };

/** The server authenticates this token and fixes actor, context, surface and tool names. */
export function capabilityClient(token: string) {
  return createHTTPCapabilityClient({
    url: process.env.README_CAPABILITY_URL!,
    headers: { authorization: `Bearer ${token}` },
  });
}

/** In the chat handler: one tool set per request. `turnId` names this user turn, so a replay finds the same ids. */
export async function chat(model: LanguageModel, token: string, ids: InvocationIds, turnId: string, prompt: string) {
  const occurrences = new Map<string, number>();
  const tools = await toAISDKTools(capabilityClient(token), {
    // Keyed by what a replay of the turn reproduces, never by the model's toolCallId.
    invocationId: ({ capabilityId, input }) => {
      const call = `${capabilityId}:${canonicalJson(input)}`;
      const occurrence = occurrences.get(call) ?? 0;
      occurrences.set(call, occurrence + 1);
      return ids.allocate(`${turnId}:${call}:${occurrence}`);
    },
  });
  return generateText({ model, tools, prompt, stopWhen: stepCountIs(5) });
}

/** After a manager approved on the server: run the suspended call once, under its invocation id. */
export function runApproved(token: string, pending: Extract<RemoteAISDKToolResult, { status: "approval-required" }>) {
  return capabilityClient(token).resume({ invocationId: pending.invocationId, approvalId: pending.approvalId });
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}
// --- README remote example: end

let server: CapabilityServer;
let app: ReturnType<typeof buildApp>;
beforeAll(async () => {
  app = buildApp();
  server = await startCapabilityServer({ runtime: app.runtime, appContext, actors: [dana, priya] });
  process.env.README_CAPABILITY_URL = server.url;
});
afterAll(async () => {
  delete process.env.README_CAPABILITY_URL;
  await server.close();
});

/** The store the example assumes, in memory: commit, then answer. */
function memoryIds() {
  const committed = new Map<string, string>();
  const ids: InvocationIds = {
    async allocate(key) {
      if (!committed.has(key)) committed.set(key, `inv-${randomUUID()}`);
      return committed.get(key)!;
    },
  };
  return { ids, committed };
}

it("the README remote example: a read, a refund awaiting approval, the approved run, and a replayed turn that runs nothing twice", async () => {
  const { ids, committed } = memoryIds();
  const turn = () =>
    scriptedModel([
      [toolCall(`call_${randomUUID()}`, "orders_get", { orderId: "o1" }), toolCall(`call_${randomUUID()}`, "orders_refund", { amount: 649, orderId: "o1" })],
      [text("Your refund is waiting for a manager.")],
    ]).model;

  const first = await chat(turn(), dana.id, ids, "turn-1", "Refund order o1, it arrived broken.");
  expect(first.text).toBe("Your refund is waiting for a manager.");
  const outputs = (first.steps[0]!.content as { type: string; output?: unknown }[]).filter((part) => part.type === "tool-result").map((part) => part.output);
  expect(outputs[0]).toEqual({ status: "ok", data: { orderId: "o1", total: 649, status: "delivered" } });
  const pending = outputs[1] as Extract<RemoteAISDKToolResult, { status: "approval-required" }>;
  expect(pending).toMatchObject({ status: "approval-required", approvalId: expect.stringMatching(/^apr_/), invocationId: expect.stringMatching(/^inv-/) });
  expect([...committed.keys()]).toEqual(['turn-1:orders.get:{"orderId":"o1"}:0', 'turn-1:orders.refund:{"amount":649,"orderId":"o1"}:0']);

  await app.runtime.approvals.decide(pending.approvalId, { status: "approved", approver: priya });
  expect(await runApproved(dana.id, pending)).toMatchObject({ status: "completed", invocationId: pending.invocationId, output: { refunded: 649 } });

  // The same turn again, with regenerated call ids: the same invocation ids, so the journal answers and nothing reruns.
  const again = await chat(turn(), dana.id, ids, "turn-1", "Refund order o1, it arrived broken.");
  const replayed = (again.steps[0]!.content as { type: string; output?: unknown }[]).filter((part) => part.type === "tool-result").map((part) => part.output);
  expect(replayed[0]).toEqual(outputs[0]);
  expect(replayed[1]).toEqual({ status: "ok", data: { refunded: 649, orderId: "o1", approvedBy: "u_priya" } });
  expect(committed.size).toBe(2);
  expect(app.handlerRuns).toEqual(["orders.get", "orders.refund"]);
});

it("the README shows exactly this example", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const shown = /## Remote capability clients[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  const source = readFileSync(new URL(import.meta.url), "utf8");
  const region = /\/\/ --- README remote example: start\n([\s\S]*?)\/\/ --- README remote example: end\n/.exec(source)?.[1];
  expect(region).toBeDefined();
  const asPublished = region!
    .replace('from "../src/index.js"', 'from "@orpc-agent/ai-sdk"')
    .replace("url: process.env.README_CAPABILITY_URL!,", 'url: "https://api.example.com/rpc", // your RPCHandler prefix; the router is mounted as `agent`');
  expect(shown).toBe(asPublished);
});
