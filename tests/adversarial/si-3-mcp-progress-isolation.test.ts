// SI-3 on MCP progress (issue 46): a capability's progress goes to the request that asked for it and nowhere else.
// The attacks, in both eras of the v2 endpoint over raw HTTP: two principals' calls in flight at once under the SAME
// progress token (each must see only its own updates), a concurrent call that sent no token (it must see none), and
// tokens MCP does not allow (no progress either). The handlers wait for each other, so the calls overlap for sure.
import { describe, expect, it } from "vitest";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createMCPHandler } from "@orpc-agent/mcp";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern, nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { callMessage, ERAS, headersFor, messagesOf, post, type Era } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

type Message = { method?: string; params?: { progressToken?: unknown; progress?: number; message?: string }; result?: { structuredContent?: unknown } };

/** `jobs_report`: waits until `parties` calls are running, then reports one update naming its actor, and returns it. */
function overlappingApp(parties: number) {
  let arrived = 0;
  let allThere!: () => void;
  const together = new Promise<void>((resolve) => (allThere = resolve));
  const registry = createCapabilityRegistry({
    jobs: {
      report: ap
        .meta(agentMeta({ description: "Reports progress.", expose: { mcp: true }, sideEffect: "read", risk: "low", timeoutMs: 20_000 }))
        .handler(async ({ context }) => {
          if (++arrived === parties) allThere();
          await together;
          const actor = context.agent!.actor.id;
          context.agent!.reportProgress({ progress: 1, total: 1, message: actor });
          return { actor };
        }),
    },
  });
  return { runtime: createAgentRuntime({ governance: defineGovernance({ registry }) }) };
}

function serve(app: ReturnType<typeof overlappingApp>) {
  return listenModern((url) =>
    createMCPHandler(app.runtime, {
      resource: url,
      verifyToken: (token) => (/^tok-[a-z]+$/.test(token) ? { token, clientId: "c1", scopes: [], expiresAt: nowInSeconds() + 3600, resource: url } : null),
      createContext: ({ authInfo }) => ({ actor: { id: `u_${authInfo!.token.slice(4)}`, kind: "user" }, context: {} }),
    }),
  );
}

function call(url: URL, era: Era, token: string, meta: Record<string, unknown> | undefined): Promise<Message[]> {
  const message = callMessage("jobs_report", era, 1) as { params: { _meta?: Record<string, unknown> } };
  if (meta !== undefined) message.params._meta = { ...message.params._meta, ...meta };
  return post(url, JSON.stringify(message), headersFor("jobs_report", era), token).then((response) => messagesOf(response) as Promise<Message[]>);
}

const progressOf = (messages: Message[]) => messages.filter((message) => message.method === "notifications/progress");
const resultOf = (messages: Message[]) => messages.find((message) => message.result !== undefined)?.result?.structuredContent;

describe.each(ERAS)("SI-3: MCP progress stays with the request that asked (%s era)", (era) => {
  it("SI-3: two principals under the same progress token each receive only their own progress", async () => {
    const { url } = await serve(overlappingApp(2));
    const [dana, priya] = await Promise.all([
      call(url, era, "tok-dana", { progressToken: "shared" }),
      call(url, era, "tok-priya", { progressToken: "shared" }),
    ]);
    expect(resultOf(dana)).toEqual({ status: "ok", data: { actor: "u_dana" } });
    expect(resultOf(priya)).toEqual({ status: "ok", data: { actor: "u_priya" } });
    expect(progressOf(dana).map((message) => message.params)).toEqual([{ progressToken: "shared", progress: 1, total: 1, message: "u_dana" }]);
    expect(progressOf(priya).map((message) => message.params)).toEqual([{ progressToken: "shared", progress: 1, total: 1, message: "u_priya" }]);
  });

  it("SI-3: a concurrent call without a progress token receives no progress, the other principal's included", async () => {
    const { url } = await serve(overlappingApp(2));
    const [asked, silent] = await Promise.all([call(url, era, "tok-dana", { progressToken: 7 }), call(url, era, "tok-priya", undefined)]);
    expect(progressOf(asked).map((message) => message.params)).toEqual([{ progressToken: 7, progress: 1, total: 1, message: "u_dana" }]);
    expect(resultOf(silent)).toEqual({ status: "ok", data: { actor: "u_priya" } });
    expect(progressOf(silent)).toEqual([]);
  });

  it.each([
    ["an object", { id: "x" }],
    ["a fraction", 1.5],
    ["null", null],
  ])("SI-3: a progress token that is %s asks for nothing: no progress is sent", async (_label, progressToken) => {
    const { url } = await serve(overlappingApp(1));
    const messages = await call(url, era, "tok-dana", { progressToken });
    expect(progressOf(messages)).toEqual([]);
  });
});
