// The capabilities every instance serves. Each handler execution inserts a row into `effects` (so the suite counts
// executions across processes in the database) and then prints "effect <capability> <key>".
import { z } from "zod";
import { agentMeta, createCapabilityRegistry } from "../../../packages/core/src/index.ts";
import { ap } from "../../../packages/mcp/test/support/orpc.ts";

export type EffectLog = { query: (sql: string, params?: unknown[]) => Promise<unknown>; instance: string; say: (line: string) => void };

export function createClusterRegistry(log: EffectLog) {
  /** An order id (or job key) starting with "hang-" records its effect and never returns: the call an instance is killed in. */
  const execute = async (capability: string, key: string): Promise<void> => {
    await log.query("insert into effects (instance, capability, key) values ($1, $2, $3)", [log.instance, capability, key]);
    log.say(`effect ${capability} ${key}`);
    if (key.startsWith("hang-")) await new Promise(() => {});
  };
  const gated = (description: string, approval: Record<string, unknown> = {}) =>
    agentMeta({ description, expose: { mcp: true, aiSdk: true }, sideEffect: "write", risk: "high", approval: { required: true, ...approval } } as never);
  const refundInput = z.object({ orderId: z.string(), amount: z.number() });

  return createCapabilityRegistry({
    payments: {
      refund: ap
        .input(refundInput)
        .meta(gated("Refund a payment."))
        .handler(async ({ input }) => {
          await execute("payments.refund", input.orderId);
          return { refunded: input.amount };
        }),
      // Two distinct approvers must agree.
      bulkRefund: ap
        .input(refundInput)
        .meta(gated("Refund many payments.", { quorum: 2 }))
        .handler(async ({ input }) => {
          await execute("payments.bulkRefund", input.orderId);
          return { refunded: input.amount };
        }),
      // Standing grants may cover it (SI-13).
      credit: ap
        .input(refundInput)
        .meta(gated("Credit an account.", { grants: { maxUses: 10, maxTtlMs: 3_600_000, scopes: ["actor"] } }))
        .handler(async ({ input }) => {
          await execute("payments.credit", input.orderId);
          return { credited: input.amount };
        }),
    },
    notes: {
      // The requester confirms it herself in the chat (AI SDK UI answers).
      send: ap
        .input(z.object({ to: z.string(), text: z.string() }))
        .meta(gated("Send a note to a customer.", { type: "confirmation" }))
        .handler(async ({ input }) => {
          await execute("notes.send", input.to);
          return { sent: input.to };
        }),
    },
    exports: {
      // Always a task (for a client declaring the extension): records its start, then runs until cancelled. Its
      // timeout is far away, so only a cancel ends it.
      slow: ap
        .input(z.object({ key: z.string() }))
        .meta(agentMeta({ description: "Export rows slowly.", expose: { mcp: true }, sideEffect: "read", risk: "low", timeoutMs: 3_600_000, adapters: { mcp: { task: "always" } } } as never))
        .handler(async ({ input, signal }) => {
          await execute("exports.slow", input.key);
          await new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true }));
          await execute(`exports.slow.${(signal!.reason as { code?: string }).code ?? "aborted"}`, input.key);
          throw signal!.reason;
        }),
    },
    jobs: {
      // An ungated write, for the journaled remote path.
      run: ap
        .input(z.object({ key: z.string() }))
        .meta(agentMeta({ description: "Run a job.", expose: { mcp: true, aiSdk: true }, sideEffect: "write", risk: "low" } as never))
        .handler(async ({ input }) => {
          await execute("jobs.run", input.key);
          return { ran: input.key };
        }),
    },
  });
}
