// The fixture registry of the adapter conformance suite (docs/architecture/spec/adapters.md#adapters-5-1): one capability per behaviour the
// suite checks, all under `fixtures.*`, plus the runtime policies that hide, deny and break discovery.
// Core is imported by its package name (aliased to the sources in vitest) so every package's tests share
// one core module instance.
import { os } from "@orpc/server";
import { z } from "zod";
import {
  agentMeta,
  agentProcedure,
  allow,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  deny,
  hide,
  type Actor,
  type AgentGovernance,
  type AgentMeta,
} from "@orpc-agent/core";

/** The requester in every check. */
export const u_dana: Actor = Object.freeze({ id: "u_dana", kind: "user" });
/** The approver. */
export const u_priya: Actor = Object.freeze({ id: "u_priya", kind: "user" });
/** The actor `fixtures.hiddenForMallory` is hidden from. */
export const u_mallory: Actor = Object.freeze({ id: "u_mallory", kind: "user" });

export type SignalObservation = { capabilityId: string; aborted: boolean };

/**
 * What the interruptible handlers (`slow`, `slowWrite`, `timesOut`) saw. Checks await `started` before aborting,
 * so no check needs a fixed delay, and `settled` for the signal state the handler observed.
 */
export type SignalObservations = {
  /** Observations so far, in settling order. */
  list(): SignalObservation[];
  /** Resolves once a handler of `capabilityId` has started (at once if one already has). */
  started(capabilityId: string): Promise<void>;
  /** Resolves with the first observation of `capabilityId` (at once if there is one). */
  settled(capabilityId: string): Promise<SignalObservation>;
  /** Forgets everything; the suite calls it for each fresh fixture. */
  clear(): void;
};

const observations = createSignalObservations();
export const signalObservations: SignalObservations = observations;

function createSignalObservations() {
  let started = new Set<string>();
  let settledList: SignalObservation[] = [];
  let startWaiters: { id: string; resolve: () => void }[] = [];
  let settleWaiters: { id: string; resolve: (o: SignalObservation) => void }[] = [];
  return {
    list: () => settledList.map((o) => ({ ...o })),
    started: (id: string) =>
      started.has(id) ? Promise.resolve() : new Promise<void>((resolve) => startWaiters.push({ id, resolve })),
    settled: (id: string) => {
      const found = settledList.find((o) => o.capabilityId === id);
      return found ? Promise.resolve({ ...found }) : new Promise<SignalObservation>((resolve) => settleWaiters.push({ id, resolve }));
    },
    clear: () => {
      started = new Set();
      settledList = [];
      startWaiters = [];
      settleWaiters = [];
    },
    markStarted(id: string) {
      started.add(id);
      for (const waiter of startWaiters.filter((w) => w.id === id)) waiter.resolve();
      startWaiters = startWaiters.filter((w) => w.id !== id);
    },
    push(observation: SignalObservation) {
      settledList.push(observation);
      for (const waiter of settleWaiters.filter((w) => w.id === observation.capabilityId)) waiter.resolve({ ...observation });
      settleWaiters = settleWaiters.filter((w) => w.id !== observation.capabilityId);
    },
  };
}

/** Runs until its signal aborts (or never gets one), then records what it saw and rejects. */
function waitForAbort(capabilityId: string, signal: AbortSignal | undefined): Promise<never> {
  observations.markStarted(capabilityId);
  return new Promise<never>((_, reject) => {
    const settle = () => {
      observations.push({ capabilityId, aborted: signal?.aborted === true });
      reject(new Error(`${capabilityId} was interrupted`));
    };
    if (signal === undefined || signal.aborted) settle();
    else signal.addEventListener("abort", settle, { once: true });
  });
}

const EVERY_SURFACE: AgentMeta["expose"] = Object.freeze({ aiSdk: true, mcp: true, direct: true, test: true, workflow: true });

function meta(description: string, overrides: Partial<AgentMeta> = {}): AgentMeta {
  return { description, expose: { ...EVERY_SURFACE }, sideEffect: "read", risk: "low", ...overrides };
}

/**
 * The fixture governance: the capabilities of docs/architecture/spec/adapters.md#adapters-5-1 in the order listed there (registry order), and
 * the runtime policies that hide `hidden` (discovery and invocation), hide `hiddenForMallory` from `u_mallory`,
 * deny `denied` and throw while discovering `brokenDiscovery`. Fresh on every call.
 */
export function buildFixtureGovernance(): AgentGovernance {
  // test-fixtures resolves @orpc/server from the workspace root, a second install of the same version than the
  // one core is typed against; the cast bridges the two declaration copies (procedures stay ordinary oRPC ones).
  const ap = agentProcedure(os as unknown as Parameters<typeof agentProcedure>[0]);
  const registry = createCapabilityRegistry({
    fixtures: {
      echo: ap
        .input(z.strictObject({ text: z.string() }))
        .meta(agentMeta(meta("Echo the text back.", { sideEffect: "none" })))
        .handler(({ input }) => ({ echoed: input.text })),
      redacted: ap
        .meta(agentMeta(meta("Return a record whose secret is redacted.", { redact: { output: dropSecret } })))
        .handler(() => ({ visible: "shown", secret: "fixture-secret-value" })),
      gated: ap
        .input(z.object({ amount: z.number() }))
        .meta(agentMeta(meta("A gated write.", { sideEffect: "write", risk: "high", approval: { required: true, type: "human-confirmation", grants: { maxUses: 5, maxTtlMs: 3_600_000, scopes: ["actor"] } } })))
        .handler(({ input }) => ({ applied: input.amount })),
      denied: ap
        .meta(agentMeta(meta("A destructive operation agents may not run.", { sideEffect: "destructive", risk: "high" })))
        .handler(() => ({ destroyed: true })),
      concealedError: ap
        .meta(agentMeta(meta("Fails with an undeclared error.")))
        .handler(() => {
          throw new Error("secret internal detail: users_table");
        }),
      declaredError: ap
        .errors({ OUT_OF_STOCK: { message: "The item is out of stock." } })
        .meta(agentMeta(meta("Fails with a declared error.")))
        .handler(({ errors }) => {
          throw errors.OUT_OF_STOCK();
        }),
      hidden: ap.meta(agentMeta(meta("Hidden by policy from everyone."))).handler(() => ({ seen: true })),
      hiddenForMallory: ap.meta(agentMeta(meta("Hidden by policy from u_mallory."))).handler(() => ({ seen: true })),
      unexposed: ap.meta(agentMeta(meta("Reachable on no surface.", { expose: {} }))).handler(() => ({ reached: true })),
      renamed: ap
        .meta(agentMeta(meta("Carries protocol tool names.", { adapters: { aiSdk: { toolName: "custom_name" }, mcp: { toolName: "custom_name" } } })))
        .handler(() => ({ renamed: true })),
      slow: ap
        .meta(agentMeta(meta("Runs until cancelled.", { timeoutMs: 5_000 })))
        .handler(({ signal }) => waitForAbort("fixtures.slow", signal)),
      slowWrite: ap
        .meta(agentMeta(meta("A write that runs until cancelled.", { sideEffect: "write", timeoutMs: 5_000 })))
        .handler(({ signal }) => waitForAbort("fixtures.slowWrite", signal)),
      timesOut: ap
        .meta(agentMeta(meta("Outlives its timeout.", { timeoutMs: 20 })))
        .handler(({ signal }) => waitForAbort("fixtures.timesOut", signal)),
      whoami: ap
        // `actor` is accepted as model data on purpose: it must never become the executing actor (SI-3).
        .input(z.object({ actor: z.unknown().optional() }))
        .meta(agentMeta(meta("Report the executing actor.")))
        .handler(({ context }) => context.agent?.actor),
      tagged: ap.meta(agentMeta(meta("Tagged scoped.", { tags: ["scoped"] }))).handler(() => ({ tagged: true })),
      untagged: ap.meta(agentMeta(meta("Carries no tags."))).handler(() => ({ tagged: false })),
      aiSdkOnly: ap.meta(agentMeta(meta("Exposed to the AI SDK only.", { expose: { aiSdk: true } }))).handler(() => ({ surface: "aiSdk" })),
      mcpOnly: ap.meta(agentMeta(meta("Exposed to MCP only.", { expose: { mcp: true } }))).handler(() => ({ surface: "mcp" })),
      brokenDiscovery: ap.meta(agentMeta(meta("Its discovery policy throws."))).handler(() => ({ discovered: false })),
    },
  });

  const only = (id: string) => ({ capabilities: { ids: [id] } });
  const policies = [
    definePolicy("fixtures-hidden", () => hide(), { phases: ["discovery", "invocation"], scope: only("fixtures.hidden") }),
    definePolicy("fixtures-hidden-for-mallory", (req) => (req.actor.id === u_mallory.id ? hide() : allow()), {
      phases: ["discovery", "invocation"],
      scope: only("fixtures.hiddenForMallory"),
    }),
    definePolicy("fixtures-denied", () => deny("NOPE", "This operation is not allowed for agents."), { scope: only("fixtures.denied") }),
    definePolicy(
      "fixtures-broken-discovery",
      () => {
        throw new Error("discovery policy failure");
      },
      { phases: ["discovery"], scope: only("fixtures.brokenDiscovery") },
    ),
  ];
  return defineGovernance({ registry, policies });
}

function dropSecret(output: unknown): unknown {
  const { secret: _secret, ...rest } = output as { secret?: unknown };
  return rest;
}
