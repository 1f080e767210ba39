// SI-3 and SI-12 at the edges of MCP cancellation by principal (issue 43, finding 2). The first suites
// (si-3-mcp-cancel-across-principals) vary who shares what with the victim; these vary the principal itself by the
// least a caller can change (the kind alone, the acting agent alone, the agent's id in another letter case or Unicode
// form, an id built from the key encoding's own delimiters, lone surrogates) and the timing (a cancellation sent
// before the call it names, a request id reused by another principal after the first call finished, two principals'
// calls in flight under one id). A cancellation reaches exactly the calls its own principal made, however alike the
// other principal looks. On v1 stateful sessions, such a look-alike naming the victim's session is an unknown session.
import { AsyncLocalStorage } from "node:async_hooks";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance, type Actor } from "@orpc-agent/core";
import { createMCPHandler } from "@orpc-agent/mcp";
import { createMCPHttpHandler } from "@orpc-agent/mcp/v1";
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern } from "../../packages/mcp/test/support/handler.js";
import { listen } from "../../packages/mcp/test/support/http.js";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { connectRawStdio } from "../../packages/mcp/test/stdio/raw-stdio.js";
import { callMessage, cancelMessage, headersFor, messagesOf, MODERN_META, modernHeaders, post, type Era } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

type Outcome = "released" | "aborted";

type Gate = { started: Promise<void>; released: Promise<void>; aborted: Promise<void>; release(): void; wasAborted(): boolean };

function newGate(): Gate & { start(): void; abort(): void } {
  let start!: () => void;
  let release!: () => void;
  let abort!: () => void;
  let aborted = false;
  const started = new Promise<void>((resolve) => (start = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const abortSeen = new Promise<void>((resolve) => (abort = () => ((aborted = true), resolve())));
  return { started, released, aborted: abortSeen, start, release, abort, wasAborted: () => aborted };
}

/** `jobs_wait`: every call waits on a gate of its own, in arrival order, until released or aborted. */
function gatesApp() {
  const gates: ReturnType<typeof newGate>[] = [];
  const gate = (index: number) => {
    while (gates.length <= index) gates.push(newGate());
    return gates[index]!;
  };
  let calls = 0;
  const registry = createCapabilityRegistry({
    jobs: {
      wait: ap.meta(agentMeta({ description: "Waits.", expose: { mcp: true }, sideEffect: "read", risk: "low", timeoutMs: 60_000 })).handler(async ({ signal }) => {
        const own = gate(calls++);
        signal?.addEventListener("abort", () => own.abort(), { once: true });
        own.start();
        const outcome: Outcome = await Promise.race([own.released.then(() => "released" as const), own.aborted.then(() => "aborted" as const)]);
        return { outcome };
      }),
    },
  });
  return { runtime: createAgentRuntime({ governance: defineGovernance({ registry }) }), gate: (index: number): Gate => gate(index) };
}

/** The principal each HTTP request names in `x-principal` (JSON), as a proxy in front of the endpoint would. */
const principalOfRequest = new AsyncLocalStorage<Actor | undefined>();

function serve(app: ReturnType<typeof gatesApp>) {
  return listenModern(() => {
    const handler = createMCPHandler(app.runtime, {
      allowUnauthenticated: true,
      createContext: () => {
        const actor = principalOfRequest.getStore();
        return actor === undefined ? null : { actor, context: {} };
      },
    });
    return {
      fetch: (request: Request) => {
        const named = request.headers.get("x-principal");
        return principalOfRequest.run(named === null ? undefined : (JSON.parse(decodeURIComponent(named)) as Actor), () => handler.fetch(request));
      },
      close: () => handler.close(),
    };
  });
}

const as = (actor: Actor) => ({ "x-principal": encodeURIComponent(JSON.stringify(actor)) });

async function outcomeOf(response: Response): Promise<Outcome | undefined> {
  const messages = (await messagesOf(response)) as { id?: unknown; result?: { structuredContent?: { data?: { outcome?: Outcome } } } }[];
  return messages.find((message) => message.id !== undefined)?.result?.structuredContent?.data?.outcome;
}

function cancelBody(era: Era, requestId: unknown): { body: string; headers: Record<string, string> } {
  if (era === "legacy") return { body: JSON.stringify(cancelMessage(requestId)), headers: headersFor("jobs_wait", "legacy") };
  const { "mcp-name": _name, ...headers } = modernHeaders("jobs_wait");
  const message = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "stop", _meta: MODERN_META } };
  return { body: JSON.stringify(message), headers: { ...headers, "mcp-method": "notifications/cancelled" } };
}

function client(url: URL, era: Era, actor: Actor) {
  return {
    call: (id: number | string) => post(url, JSON.stringify(callMessage("jobs_wait", era, id)), { ...headersFor("jobs_wait", era), ...as(actor) }),
    async cancel(id: number | string) {
      const { body, headers } = cancelBody(era, id);
      const answer = await post(url, body, { ...headers, ...as(actor) });
      await answer.text();
      expect(answer.status).toBeLessThan(300);
    },
  };
}

const user = (id: string, via?: string): Actor => ({ id, kind: "user", ...(via !== undefined && { via: { id: via } }) });

/** Victim and attacker principals that differ by as little as a caller can vary. */
const LOOK_ALIKES: [string, Actor, Actor][] = [
  ["the kind alone (user / service)", user("u_1"), { id: "u_1", kind: "service" }],
  ["the kind alone (automation / service)", { id: "u_1", kind: "automation" }, { id: "u_1", kind: "service" }],
  ["the acting agent alone", user("u_1", "agent-1"), user("u_1", "agent-2")],
  ["the acting agent's letter case", user("u_1", "agent-1"), user("u_1", "Agent-1")],
  ["the acting agent's Unicode form (composed / decomposed)", user("u_1", "caf\u00e9"), user("u_1", "cafe\u0301")],
  ["an acting agent against none (the user's own cancel)", user("u_1", "agent-1"), user("u_1")],
  ["no acting agent against one (the agent's cancel)", user("u_1"), user("u_1", "agent-1")],
  ["ids built from the key's delimiters", user("a", "b"), user('a","user","b')],
  ["ids built from the key's delimiters, the other way", user('a","user","b'), user("a", "b")],
  ["an id whose acting agent spells null", user("u_1"), user("u_1", "null")],
  ["two lone surrogates", user("\ud800"), user("\udc00")],
  ["a lone surrogate and the replacement character", user("\ud800"), user("\ufffd")],
  ["the id and the agent swapped", user("x", "y"), user("y", "x")],
];

describe.each<Era>(["legacy", "modern"])("SI-3: HTTP, %s era: a look-alike principal's cancellation", (era) => {
  it.each(LOOK_ALIKES)("SI-3: differing in %s, the attacker's cancel leaves the victim's call running (2025 era: the victim's own stops it)", async (_label, victim, attacker) => {
    const app = gatesApp();
    const { url } = await serve(app);
    const victimCall = client(url, era, victim).call(1);
    await app.gate(0).started;
    await client(url, era, attacker).cancel(1);
    expect(app.gate(0).wasAborted()).toBe(false);
    app.gate(0).release();
    expect(await outcomeOf(await victimCall)).toBe("released");
    // A 2026-07-28 call is cancelled by dropping its stream; a 2025-era one by the notification, checked below.
    if (era === "modern") return;

    // The victim's own principal, however odd, does reach its own call.
    const second = client(url, era, victim).call(2);
    await app.gate(1).started;
    await client(url, era, victim).cancel(2);
    await app.gate(1).aborted;
    app.gate(1).release();
    void second.then((response) => response.body?.cancel()).catch(() => undefined);
  });
});

describe("SI-3: HTTP, 2025 era: cancellations out of order", () => {
  const dana = user("u_dana", "agent-1");
  const mallory = user("u_mallory", "agent-1");

  it("SI-12: a cancellation sent before the call it names arrives cancels nothing: the call, arriving after, runs", async () => {
    const app = gatesApp();
    const { url } = await serve(app);
    await client(url, "legacy", dana).cancel(1);
    const call = client(url, "legacy", dana).call(1);
    await app.gate(0).started;
    app.gate(0).release();
    expect(await outcomeOf(await call)).toBe("released");
    expect(app.gate(0).wasAborted()).toBe(false);
  });

  it("SI-3: after a call finished, its request id reused by another principal: the first principal's cancel for that id reaches nothing", async () => {
    const app = gatesApp();
    const { url } = await serve(app);
    const first = client(url, "legacy", dana).call(1);
    await app.gate(0).started;
    app.gate(0).release();
    expect(await outcomeOf(await first)).toBe("released");

    const reused = client(url, "legacy", mallory).call(1);
    await app.gate(1).started;
    await client(url, "legacy", dana).cancel(1);
    expect(app.gate(1).wasAborted()).toBe(false);
    app.gate(1).release();
    expect(await outcomeOf(await reused)).toBe("released");
  });

  it("SI-3: two principals' calls in flight under one request id: each cancel stops only its own", async () => {
    const app = gatesApp();
    const { url } = await serve(app);
    const danaCall = client(url, "legacy", dana).call(1);
    await app.gate(0).started;
    const malloryCall = client(url, "legacy", mallory).call(1);
    await app.gate(1).started;

    await client(url, "legacy", mallory).cancel(1);
    await app.gate(1).aborted;
    expect(app.gate(0).wasAborted()).toBe(false);
    app.gate(0).release();
    app.gate(1).release();
    expect(await outcomeOf(await danaCall)).toBe("released");
    void malloryCall.then((response) => response.body?.cancel()).catch(() => undefined);
  });

  it("SI-3: 1 and \"1\" are different request ids: a cancel for one leaves a call under the other running", async () => {
    const app = gatesApp();
    const { url } = await serve(app);
    const call = client(url, "legacy", dana).call("1");
    await app.gate(0).started;
    await client(url, "legacy", dana).cancel(1);
    expect(app.gate(0).wasAborted()).toBe(false);
    app.gate(0).release();
    expect(await outcomeOf(await call)).toBe("released");
  });
});

describe.each<Era>(["legacy", "modern"])("SI-3: stdio, %s era: a look-alike signed-in principal", (era) => {
  it.each(LOOK_ALIKES)("SI-3: differing in %s, a cancel while the look-alike is signed in leaves the call running", async (_label, victim, attacker) => {
    const app = gatesApp();
    const session = { actor: victim };
    const raw = await connectRawStdio(app.runtime, { createContext: () => ({ actor: session.actor, context: {} }) }, era);
    const call = raw.request(1, "tools/call", { name: "jobs_wait", arguments: {} });
    await app.gate(0).started;
    session.actor = attacker;
    await raw.notify("notifications/cancelled", { requestId: 1, reason: "stop" });
    // A full round trip after the cancel: it has been judged by the time this answers.
    await raw.request(2, "tools/list");
    expect(app.gate(0).wasAborted()).toBe(false);
    app.gate(0).release();
    const answer = (await call) as { result?: { structuredContent?: { data?: { outcome?: Outcome } } } };
    expect(answer.result?.structuredContent?.data?.outcome).toBe("released");
  });
});

describe("SI-3: v1 stateful sessions under allowUnauthenticated: a look-alike principal naming the victim's session", () => {
  const V1_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const UNKNOWN_SESSION = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9";

  async function serveV1(app: ReturnType<typeof gatesApp>) {
    const handler = createMCPHttpHandler(app.runtime, {
      allowUnauthenticated: true,
      createContext: () => {
        const actor = principalOfRequest.getStore();
        return actor === undefined ? null : { actor, context: {} };
      },
    });
    return listen((request: Request) => {
      const named = request.headers.get("x-principal");
      return principalOfRequest.run(named === null ? undefined : (JSON.parse(decodeURIComponent(named)) as Actor), () => handler(request));
    });
  }

  async function open(url: URL, actor: Actor): Promise<string> {
    const body = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
    const opened = await post(url, JSON.stringify(body), { ...V1_HEADERS, ...as(actor) });
    await opened.text();
    const sessionId = opened.headers.get("mcp-session-id")!;
    await (await post(url, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), { ...V1_HEADERS, ...as(actor), "mcp-session-id": sessionId })).text();
    return sessionId;
  }

  it.each(LOOK_ALIKES)("SI-3: differing in %s, the look-alike's cancel on the victim's session answers as an unknown session and the call runs on", async (_label, victim, attacker) => {
    const app = gatesApp();
    const { url } = await serveV1(app);
    const sessionId = await open(url, victim);
    const call = post(url, JSON.stringify(callMessage("jobs_wait", "legacy", 1)), { ...V1_HEADERS, ...as(victim), "mcp-session-id": sessionId });
    await app.gate(0).started;
    const cancel = JSON.stringify(cancelMessage(1));
    const attack = await post(url, cancel, { ...V1_HEADERS, ...as(attacker), "mcp-session-id": sessionId });
    const unknown = await post(url, cancel, { ...V1_HEADERS, ...as(attacker), "mcp-session-id": UNKNOWN_SESSION });
    expect({ status: attack.status, body: await attack.text() }).toEqual({ status: unknown.status, body: await unknown.text() });
    expect(app.gate(0).wasAborted()).toBe(false);
    app.gate(0).release();
    expect(await outcomeOf(await call)).toBe("released");
  });
});
