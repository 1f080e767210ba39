// SI-3 on the MCP v2 endpoint: `createContext` decides who is asking, and whatever odd value it produces is either a
// well-formed actor or one and the same refusal ("a refused or failing createContext is the same JSON-RPC error").
// The attacks: actors of an unknown kind, empty or non-string ids, a Proxy whose getters throw, a Proxy whose id
// changes between reads, and a thenable that rejects; on both eras.
import { describe, expect, it } from "vitest";
import type { MCPIdentity } from "@orpc-agent/mcp";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { callMessage, ERAS, headersFor, messagesOf, post, scopedApp, serveScoped, type Era } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const throwing = new Proxy({}, { get: () => { throw new Error("getter"); } });
const ODD: [string, () => unknown][] = [
  ["an unknown actor kind", () => ({ actor: { id: "u_dana", kind: "admin" }, context: {} })],
  ["an empty id", () => ({ actor: { id: "", kind: "user" }, context: {} })],
  ["a numeric id", () => ({ actor: { id: 7, kind: "user" }, context: {} })],
  ["an identity Proxy whose getters throw", () => throwing],
  ["an actor Proxy whose getters throw", () => ({ actor: throwing, context: {} })],
  ["a rejecting thenable", () => ({ then: (_: unknown, reject: (e: unknown) => void) => reject(new Error("no")) })],
];

async function answer(url: URL, era: Era) {
  const response = await post(url, JSON.stringify(callMessage("cheap_ping", era)), headersFor("cheap_ping", era), "tok-dana");
  return { status: response.status, messages: await messagesOf(response) };
}

describe.each(ERAS)("SI-3: odd createContext answers (%s)", (era) => {
  it.each(ODD)("SI-3: %s is refused exactly as a null identity and runs nothing", async (_label, odd) => {
    const refusedApp = scopedApp();
    const refused = await serveScoped(refusedApp, { createContext: () => null });
    const oddApp = scopedApp();
    const served = await serveScoped(oddApp, { createContext: odd as () => MCPIdentity<{ tenant: string }> });
    expect(await answer(served.url, era)).toEqual(await answer(refused.url, era));
    expect(oddApp.runs).toEqual([]);
  });

  it("SI-3: an actor whose id changes between reads is read once: the checked actor is the one that runs", async () => {
    const app = scopedApp();
    let reads = 0;
    const shifty = new Proxy({ id: "u_dana", kind: "user" }, { get: (target, key) => (key === "id" ? (reads++ === 0 ? "u_dana" : 42) : target[key as keyof typeof target]) });
    const { url } = await serveScoped(app, { createContext: () => ({ actor: shifty as never, context: { tenant: "t1" } }) });
    const [message] = (await answer(url, era)).messages as { result?: { structuredContent?: unknown } }[];
    expect(message?.result?.structuredContent).toEqual({ status: "ok", data: { pong: true } });
    expect(reads).toBe(1);
    expect(app.runs).toEqual(["cheap.ping"]);
  });
});
