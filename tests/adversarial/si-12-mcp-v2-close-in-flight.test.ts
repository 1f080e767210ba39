// SI-12 on the MCP v2 endpoint: `close()` promises that in-flight exchanges are aborted (their handlers see it) and
// that later requests are refused. The attack is the operator's own shutdown: a call still running on either era
// must not outlive the endpoint, and nothing new may start once it is closed.
import { describe, expect, it } from "vitest";
import { createMCPHandler } from "@orpc-agent/mcp";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { callMessage, ERAS, gatedApp, headersFor, post } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

function serve(app: ReturnType<typeof gatedApp>) {
  return listenModern((url) =>
    createMCPHandler(app.runtime, {
      resource: url,
      verifyToken: (token) => (token === "tok-dana" ? { token, clientId: "c1", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url } : null),
      createContext: ({ authInfo }) => (authInfo ? { actor: { id: "u_dana", kind: "user" }, context: {} } : null),
    }),
  );
}

describe.each(ERAS)("SI-12: close() during an in-flight call (%s)", (era) => {
  it("SI-12: the running handler sees the abort and a request after close never reaches a handler", async () => {
    const app = gatedApp();
    const { url, handler } = await serve(app);
    const call = post(url, JSON.stringify(callMessage("jobs_wait", era, 1)), headersFor("jobs_wait", era), "tok-dana").then((response) => response.text()).catch(() => "");
    await app.running;
    await handler.close();
    await app.abortSeen;
    app.release();
    await call;
    const late = new Request(url, { method: "POST", body: JSON.stringify(callMessage("jobs_wait", era, 2)), headers: { ...headersFor("jobs_wait", era), authorization: "Bearer tok-dana" } });
    const refused = await handler.fetch(late).then((response) => response.status, () => "rejected");
    expect(refused === "rejected" || (typeof refused === "number" && refused >= 400)).toBe(true);
  });
});
