// SI-8 for streaming capabilities over MCP (issue 46), an attack that held (kept as a regression): a streaming
// capability hidden from the caller, called with a progressToken, answers over raw HTTP in both eras exactly like a
// tool name that does not exist (same messages, no progress notification, the handler never runs), and tools/list
// does not show it.
import { eventIterator } from "@orpc/server";
import { agentMeta, allow, createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy, hide } from "@orpc-agent/core";
import { createMCPHandler } from "@orpc-agent/mcp";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { callMessage, ERAS, headersFor, messagesOf, MODERN_META, post, type Era } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

function serve() {
  let ran = 0;
  const registry = createCapabilityRegistry({
    ledger: {
      export: ap
        .output(eventIterator(z.object({ line: z.string() })))
        .meta(agentMeta({ description: "Exports the ledger.", expose: { mcp: true }, sideEffect: "read", risk: "low" }))
        .handler(async function* ({ context }) {
          ran++;
          context.agent!.reportProgress({ progress: 1, message: "progress of a hidden tool" });
          yield { line: "secret ledger line" };
        }),
    },
  });
  const hideFromMo = definePolicy("hide-from-mo", (req) => (req.actor.id === "u_mo" ? hide() : allow()), { phases: ["discovery", "invocation"] });
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry, policies: [hideFromMo] }) });
  return listenModern((url) =>
    createMCPHandler(runtime, {
      resource: url,
      verifyToken: (token) => (/^tok-[a-z]+$/.test(token) ? { token, clientId: "c1", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url } : null),
      createContext: ({ authInfo }) => ({ actor: { id: `u_${authInfo!.token.slice(4)}`, kind: "user" }, context: {} }),
    }),
  ).then((served) => ({ ...served, ran: () => ran }));
}

async function call(url: URL, era: Era, name: string, token: string): Promise<unknown[]> {
  const message = callMessage(name, era, 1) as { params: { _meta?: Record<string, unknown> } };
  message.params._meta = { ...message.params._meta, progressToken: "p1" };
  return messagesOf(await post(url, JSON.stringify(message), headersFor(name, era), token));
}

async function listed(url: URL, era: Era, token: string): Promise<string[]> {
  const body = { jsonrpc: "2.0", id: 2, method: "tools/list", params: era === "modern" ? { _meta: MODERN_META } : {} };
  const headers = era === "modern" ? { ...headersFor("x", era), "mcp-method": "tools/list" } : headersFor("x", era);
  delete (headers as Record<string, string>)["mcp-name"];
  const [answer] = (await messagesOf(await post(url, JSON.stringify(body), headers, token))) as { result?: { tools?: { name: string }[] } }[];
  return (answer?.result?.tools ?? []).map((tool) => tool.name);
}

describe.each(ERAS)("SI-8: a hidden streaming tool over MCP answers like an unknown one (%s era)", (era) => {
  it("SI-8: same messages as an unknown name, no progress, the handler never runs; tools/list omits it", async () => {
    const { url, ran } = await serve();
    expect(await listed(url, era, "tok-dana")).toContain("ledger_export");
    expect(await listed(url, era, "tok-mo")).not.toContain("ledger_export");
    const hidden = await call(url, era, "ledger_export", "tok-mo");
    const unknown = await call(url, era, "ledger_nope", "tok-mo");
    expect(hidden).toEqual(unknown);
    expect(JSON.stringify(hidden)).not.toContain("notifications/progress");
    expect(ran()).toBe(0);
    const visible = await call(url, era, "ledger_export", "tok-dana");
    expect(JSON.stringify(visible)).toContain("notifications/progress");
    expect(ran()).toBe(1);
  });
});
