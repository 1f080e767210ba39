// SI-12 on MCP progress (issue 46): every `notifications/progress` repeats the request's progressToken, and the v2
// endpoint's SSE stream queues what it is handed without waiting for the client to read. So a token the size of
// the request body (megabytes) would be copied into every update of a streaming capability: a client that sends one
// and stops reading grows the server's memory by the token times the number of events. The attack, in both eras over
// raw HTTP: a 100 000-character token on a 40-event stream. A token past the bound asks for nothing (no progress,
// as for a token MCP does not allow); the call still answers; a token at the bound still gets its progress.
import { eventIterator } from "@orpc/server";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createMCPHandler } from "@orpc-agent/mcp";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PROGRESS_TOKEN_MAX_LENGTH } from "../../packages/mcp/src/catalog/progress.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { callMessage, ERAS, headersFor, messagesOf, post, type Era } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

type Message = { method?: string; params?: { progressToken?: unknown; progress?: number }; result?: { structuredContent?: unknown } };

const EVENTS = 40;

function serve() {
  const registry = createCapabilityRegistry({
    rows: {
      feed: ap
        .output(eventIterator(z.object({ n: z.number() })))
        .meta(agentMeta({ description: "Streams rows.", expose: { mcp: true }, sideEffect: "read", risk: "low" }))
        .handler(async function* () {
          for (let n = 1; n <= EVENTS; n++) yield { n };
        }),
    },
  });
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }) });
  return listenModern((url) =>
    createMCPHandler(runtime, {
      resource: url,
      verifyToken: (token) => (token === "tok-dana" ? { token, clientId: "c1", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url } : null),
      createContext: () => ({ actor: { id: "u_dana", kind: "user" }, context: {} }),
    }),
  );
}

async function call(url: URL, era: Era, progressToken: string): Promise<Message[]> {
  const message = callMessage("rows_feed", era, 1) as { params: { _meta?: Record<string, unknown> } };
  message.params._meta = { ...message.params._meta, progressToken };
  return (await messagesOf(await post(url, JSON.stringify(message), headersFor("rows_feed", era), "tok-dana"))) as Message[];
}

const progressOf = (messages: Message[]) => messages.filter((message) => message.method === "notifications/progress");
const resultOf = (messages: Message[]) => messages.find((message) => message.result !== undefined)?.result?.structuredContent;

describe.each(ERAS)("SI-12: a progress token is never amplified into every notification (%s era)", (era) => {
  it("SI-12: a 100 000-character token asks for no progress; the stream still answers its last event", async () => {
    const { url } = await serve();
    const messages = await call(url, era, "t".repeat(100_000));
    expect(progressOf(messages)).toEqual([]);
    expect(resultOf(messages)).toEqual({ status: "ok", data: { n: EVENTS } });
  });

  it("SI-12: a token at the bound gets its progress, one notification per event", async () => {
    const { url } = await serve();
    const token = "t".repeat(PROGRESS_TOKEN_MAX_LENGTH);
    const messages = await call(url, era, token);
    const progress = progressOf(messages);
    expect(progress).toHaveLength(EVENTS);
    expect(progress.every((message) => message.params?.progressToken === token)).toBe(true);
    expect(resultOf(messages)).toEqual({ status: "ok", data: { n: EVENTS } });
  });
});
