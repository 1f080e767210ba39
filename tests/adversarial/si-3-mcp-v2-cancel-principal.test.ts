// SI-3 on the MCP v2 endpoint's 2025-era cancellation (stateless: a `notifications/cancelled` is its own POST). The
// attacks: a verifier whose AuthInfo carries no `token` (it identifies the user by claims), so "the principal" must
// not collapse to one constant; the victim's `Mcp-Session-Id` replayed beside the attacker's own token; the cancel
// smuggled inside a batch; the request id as a string. The victim's call must finish untouched; its own cancel works.
import { describe, expect, it } from "vitest";
import { createMCPHandler } from "@orpc-agent/mcp";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { callMessage, cancelMessage, gatedApp, LEGACY_HEADERS, messagesOf, post } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const USERS: Record<string, string> = { "tok-victim": "u_victim", "tok-attacker": "u_attacker" };

/** The verifier names the user in `extra.sub` and, like many JWT verifiers, does not echo the token back. */
function serve(app: ReturnType<typeof gatedApp>, echoToken: boolean) {
  return listenModern((url) =>
    createMCPHandler(app.runtime, {
      resource: url,
      verifyToken: (token) => {
        const sub = USERS[token];
        if (sub === undefined) return null;
        const info = { clientId: "c1", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url, extra: { sub } };
        return (echoToken ? { ...info, token } : info) as never;
      },
      createContext: ({ authInfo }) => {
        const sub = (authInfo?.extra as { sub?: string } | undefined)?.sub;
        return sub === undefined ? null : { actor: { id: sub, kind: "user" }, context: {} };
      },
    }),
  );
}

async function outcomeOf(response: Response): Promise<unknown> {
  const [message] = (await messagesOf(response)) as { result?: { structuredContent?: unknown } }[];
  return message?.result?.structuredContent;
}

const RELEASED = { status: "ok", data: { outcome: "released" } };

describe.each([true, false])("SI-3: another principal cannot cancel the victim's 2025-era call (AuthInfo echoes the token: %s)", (echoToken) => {
  it.each([
    ["the victim's request id", JSON.stringify(cancelMessage(1)), {}],
    ["the request id as a string", JSON.stringify(cancelMessage("1")), {}],
    ["a batch carrying the cancel", JSON.stringify([cancelMessage(1)]), {}],
    ["the victim's Mcp-Session-Id replayed", JSON.stringify(cancelMessage(1)), { "mcp-session-id": "victim-session" }],
  ])("SI-3: a notifications/cancelled with %s from another token leaves the call running", async (_label, body, extraHeaders) => {
    const app = gatedApp();
    const { url } = await serve(app, echoToken);
    const victim = post(url, JSON.stringify(callMessage("jobs_wait", "legacy", 1)), { ...LEGACY_HEADERS, "mcp-session-id": "victim-session" }, "tok-victim");
    await app.running;
    const attack = await post(url, body, { ...LEGACY_HEADERS, ...extraHeaders }, "tok-attacker");
    await attack.text();
    app.release();
    expect(await outcomeOf(await victim)).toEqual(RELEASED);
  });

  it("SI-3: the victim's own notifications/cancelled still aborts its call", async () => {
    const app = gatedApp();
    const { url } = await serve(app, echoToken);
    const victim = post(url, JSON.stringify(callMessage("jobs_wait", "legacy", 1)), LEGACY_HEADERS, "tok-victim");
    await app.running;
    expect((await post(url, JSON.stringify(cancelMessage(1)), LEGACY_HEADERS, "tok-victim")).status).toBe(202);
    await app.abortSeen;
    app.release();
    expect(await victim.then(outcomeOf).catch(() => "no answer")).not.toEqual(RELEASED);
  });
});
