// The application of the in-process tests: an order desk whose writes record every effect with what the runtime
// handed the handler, a user directory the actor is read from (so attributes can change between steps), and
// one runtime per step execution, as the adapter builds them.
import { DBOS } from "@dbos-inc/dbos-sdk";
import { os as rootOs } from "@orpc/server";
import { z } from "zod";
import {
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type Actor,
  type AgentAuditEvent,
  type AgentInvocationInfo,
  type ApprovalCoordinator,
} from "@orpc-agent/core";

// The root @orpc/server is a second declaration copy of the one core is typed against (see test-fixtures/registry.ts).
const ap = agentProcedure(rootOs as unknown as Parameters<typeof agentProcedure>[0]);

export type Effect = {
  capabilityId: string;
  orderId: string;
  idempotencyKey: string;
  correlationId?: string;
  executionId: string;
  surface: string;
  actor: Actor;
  approver?: string;
};

export type Shop = ReturnType<typeof createShop>;

export function createShop(o: { approvalExpiresInMs?: number } = {}) {
  const effects: Effect[] = [];
  const audit: AgentAuditEvent[] = [];
  /** How many upcoming `orders.charge` executions take effect and then hang past their timeout; whether approvals are unreadable. */
  const plan = { chargesThatHang: 0, coordinatorDown: false };
  const users = new Map<string, Actor>([
    ["u_dana", { id: "u_dana", kind: "user", attributes: { tier: "silver" } }],
    ["u_priya", { id: "u_priya", kind: "user", attributes: { tier: "staff" } }],
  ]);
  let runtimesBuilt = 0;

  const record = (agent: AgentInvocationInfo | undefined, orderId: string) => {
    if (agent === undefined) throw new Error("the runtime hands every governed handler its invocation info");
    effects.push({
      capabilityId: agent.capabilityId,
      orderId,
      idempotencyKey: agent.idempotencyKey,
      correlationId: agent.correlationId,
      executionId: agent.executionId,
      surface: agent.surface,
      actor: structuredClone(agent.actor),
      approver: agent.approval?.approver.id,
    });
  };

  const write = (description: string, extra: object = {}) => ({ description, expose: { workflow: true }, sideEffect: "write" as const, risk: "medium" as const, ...extra });
  const registry = createCapabilityRegistry({
    orders: {
      lookup: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: { description: "Look an order up.", expose: { workflow: true }, sideEffect: "read", risk: "low" } })
        .handler(({ input }) => ({ orderId: input.orderId, status: "delivered" })),
      ship: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: write("Ship an order.") })
        .handler(({ input, context }) => {
          record(context.agent, input.orderId);
          return { shipped: input.orderId };
        }),
      refund: ap
        .input(z.object({ orderId: z.string(), cents: z.number().int().positive() }))
        .meta({ agent: write("Refund an order.", { risk: "high", approval: { required: true, type: "human-confirmation" } }) })
        .handler(({ input, context }) => {
          record(context.agent, input.orderId);
          return { refunded: input.cents };
        }),
      charge: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: write("Charge an order.", { timeoutMs: 100 }) })
        .handler(async ({ input, context, signal }) => {
          record(context.agent, input.orderId);
          if (plan.chargesThatHang > 0) {
            plan.chargesThatHang--;
            // The effect happened, then the call outlives its timeout: the outcome is unknown to the runtime.
            await new Promise((_, reject) => signal?.addEventListener("abort", () => reject(new Error("charge interrupted")), { once: true }));
          }
          return { charged: input.orderId };
        }),
    },
  });
  const governance = defineGovernance({ registry });
  const memory = createInMemoryApprovalCoordinator();
  const coordinator: ApprovalCoordinator = {
    ...memory,
    get: (id) => (plan.coordinatorDown ? Promise.reject(new Error("approval store unavailable")) : memory.get(id)),
  };
  const runtime = () => {
    runtimesBuilt++;
    return createAgentRuntime({
      governance,
      approvals: { coordinator, seal: false },
      audit: (event) => void audit.push(event),
      ...(o.approvalExpiresInMs === undefined ? {} : { defaults: { approvalExpiresInMs: o.approvalExpiresInMs } }),
    });
  };
  /** The workflow's persisted initiating user, looked up now: fresh attributes on every step execution. */
  const actor = (): Actor => {
    const found = users.get(DBOS.authenticatedUser);
    if (found === undefined) throw new Error(`unknown user ${JSON.stringify(DBOS.authenticatedUser)}`);
    return structuredClone(found);
  };
  return {
    effects,
    audit,
    plan,
    users,
    coordinator,
    runtime,
    actor,
    context: () => ({}),
    runtimesBuilt: () => runtimesBuilt,
    effectsOf: (orderId: string) => effects.filter((effect) => effect.orderId === orderId),
    auditOf: (correlationId: string) => audit.filter((event) => event.correlationId === correlationId),
  };
}
