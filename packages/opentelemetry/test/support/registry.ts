import { os } from "@orpc/server";
import { z } from "zod";
import { agentProcedure, CapabilityError, createCapabilityRegistry, defineGovernance, definePolicy, deny, allow } from "@orpc-agent/core";

// SI-10 sentinels: each marks one payload source that must never reach a span.
export const SENTINEL = {
  input: "SENTINEL_INPUT_7f3a",
  output: "SENTINEL_OUTPUT_9c1d",
  thrown: "SENTINEL_THROWN_2b8e",
  cause: "SENTINEL_CAUSE_5e4f",
  actorAttribute: "SENTINEL_ACTOR_ATTR_0a6c",
  actorName: "SENTINEL_ACTOR_NAME_d2e7",
} as const;

export const dana = {
  id: "u_dana",
  kind: "user" as const,
  displayName: SENTINEL.actorName,
  attributes: { email: SENTINEL.actorAttribute },
};
export const mallory = { id: "u_mallory", kind: "user" as const };
export const priya = { id: "u_priya", kind: "user" as const };

// `os` comes from the root install and core from its own; the builder types differ only by an optional peer.
const ap = agentProcedure(os);
const orderInput = z.object({ id: z.string(), note: z.string().optional() });

/**
 * One capability per span shape. `flaky` fails its first attempt with a retryable error; `slow` never settles
 * on its own, so only its timeout ends it;
 * `broken` throws an error whose message and cause carry sentinels; `guarded` sits behind a policy that throws.
 */
export function createGovernance() {
  let flakyCalls = 0;
  const registry = createCapabilityRegistry({
    orders: {
      get: ap
        .input(orderInput)
        .meta({ agent: { description: "Read an order.", expose: { direct: true, aiSdk: true }, sideEffect: "read", risk: "low" } })
        .handler(({ input }) => ({ id: input.id, note: SENTINEL.output })),
      flaky: ap
        .input(orderInput)
        .meta({
          agent: { description: "Read an order from a flaky store.", expose: { direct: true }, sideEffect: "read", risk: "low", retry: { maxAttempts: 2, backoffMs: 1 } },
        })
        .handler(({ input }) => {
          flakyCalls++;
          if (flakyCalls === 1) {
            throw new CapabilityError({ code: "EXECUTION_FAILED", retryable: true, cause: new Error(SENTINEL.cause) });
          }
          return { id: input.id, note: SENTINEL.output };
        }),
      slow: ap
        .input(orderInput)
        .meta({ agent: { description: "Read an order slowly.", expose: { direct: true }, sideEffect: "read", risk: "low", timeoutMs: 20 } })
        .handler(({ signal }) => new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true }))),
      broken: ap
        .input(orderInput)
        .meta({ agent: { description: "Always fails.", expose: { direct: true }, sideEffect: "read", risk: "medium" } })
        .handler(({ input }) => {
          throw new Error(`${SENTINEL.thrown} ${input.note ?? ""}`, { cause: new Error(SENTINEL.cause) });
        }),
      guarded: ap
        .input(orderInput)
        .meta({ agent: { description: "Read an order behind a broken policy.", expose: { direct: true }, sideEffect: "read", risk: "low" } })
        .handler(({ input }) => ({ id: input.id, note: SENTINEL.output })),
      refund: ap
        .input(z.object({ id: z.string(), amount: z.number(), note: z.string().optional() }))
        .meta({
          agent: { description: "Refund an order.", expose: { direct: true, aiSdk: true }, sideEffect: "write", risk: "high", approval: { required: true } },
        })
        .handler(({ input }) => ({ refunded: input.amount, note: SENTINEL.output })),
    },
  });
  const policies = [
    definePolicy("no-mallory", (req) => (req.actor.id === mallory.id ? deny("blocked", "Mallory may not read orders.") : allow()), {
      scope: { capabilities: { ids: ["orders.get"] } },
    }),
    definePolicy(
      "exploding",
      () => {
        throw new Error(SENTINEL.thrown);
      },
      { scope: { capabilities: { ids: ["orders.guarded"] } } },
    ),
  ];
  return defineGovernance({ registry, policies });
}
