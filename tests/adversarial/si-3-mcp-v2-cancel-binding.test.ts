// SI-3 on the MCP v2 endpoint: a stateless 2025-era request has no session, so a `notifications/cancelled` for it
// arrives as its own POST. The attack: another principal cancels the victim's in-flight call by guessing its
// JSON-RPC id (ids are small integers). The victim's call must finish untouched; its own cancel must still work.
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createMCPHandler } from "@orpc-agent/mcp";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";

closeEverythingAfterEachTest();

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
const USERS: Record<string, string> = { "tok-victim": "u_victim", "tok-attacker": "u_attacker" };

/** One tool that waits until the test releases it or its signal aborts, and says which happened. */
function gatedApp() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const registry = createCapabilityRegistry({
    jobs: {
      wait: ap
        .input(z.object({}))
        .meta({ agent: { description: "Waits.", expose: { mcp: true }, sideEffect: "read", risk: "low", timeoutMs: 60_000 } })
        .handler(async ({ signal }) => {
          started();
          const aborted = new Promise<"aborted">((resolve) => signal?.addEventListener("abort", () => resolve("aborted"), { once: true }));
          return { outcome: await Promise.race([released.then(() => "released" as const), aborted]) };
        }),
    },
  });
  return { runtime: createAgentRuntime({ governance: defineGovernance({ registry }) }), release, running };
}

async function serve(app: ReturnType<typeof gatedApp>) {
  return listenModern((url) =>
    createMCPHandler(app.runtime, {
      resource: url,
      verifyToken: (token) => (token in USERS ? { token, clientId: "", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url } : null),
      createContext: ({ authInfo }) => (authInfo && USERS[authInfo.token] ? { actor: { id: USERS[authInfo.token]!, kind: "user" }, context: {} } : null),
    }),
  );
}

const call = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "jobs_wait", arguments: {} } });
const cancel = (requestId: number) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "stop" } });
const post = (url: URL, token: string, body: string) => fetch(url, { method: "POST", headers: { ...HEADERS, authorization: `Bearer ${token}` }, body });

async function outcomeOf(response: Response): Promise<unknown> {
  const text = await response.text();
  const data = text.split("\n").find((line) => line.startsWith("data: "));
  const message = JSON.parse(data === undefined ? text : data.slice(6)) as { result?: { structuredContent?: unknown } };
  return message.result?.structuredContent;
}

describe("SI-3: 2025-era cancellation on the stateless v2 endpoint is bound to the caller's token", () => {
  it("SI-3: another principal's notifications/cancelled for the victim's request id does not abort the victim's call", async () => {
    const app = gatedApp();
    const { url } = await serve(app);
    const victim = post(url, "tok-victim", call(1));
    await app.running;
    const attack = await post(url, "tok-attacker", cancel(1));
    expect(attack.status).toBe(202);
    app.release();
    expect(await outcomeOf(await victim)).toEqual({ status: "ok", data: { outcome: "released" } });
  });

  it("SI-3: the caller's own notifications/cancelled aborts its call", async () => {
    const app = gatedApp();
    const { url } = await serve(app);
    const victim = post(url, "tok-victim", call(1));
    await app.running;
    expect((await post(url, "tok-victim", cancel(1))).status).toBe(202);
    const answer = await victim.then(outcomeOf).catch(() => "no answer");
    // The handler saw the abort: the envelope (if the SDK still answers) is never the released outcome.
    expect(answer).not.toEqual({ status: "ok", data: { outcome: "released" } });
    app.release();
  });
});
