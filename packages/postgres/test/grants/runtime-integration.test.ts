import { z } from "zod";
import { describe, expect, it } from "vitest";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { APPROVALS_DDL, createPgApprovalCoordinator, type PgQuery } from "../../src/index.js";
import { ap } from "../support/orpc.js";
import { usePglite } from "../support/pglite.js";
import { recordStatements } from "../support/statement-log.js";

// Standing grants (SI-13) through the real runtime over the PostgreSQL coordinator on PGlite (the demo's default): a
// grant decided with an approval covers the next calls across a restart, and each covered call's use is one UPDATE.
const dana = { id: "user_dana", kind: "user" } as const;
const priya = { id: "user_priya", kind: "user" } as const;
const HOUR = 3_600_000;
const ran: unknown[] = [];

const governance = defineGovernance({
  registry: createCapabilityRegistry({
    orders: {
      refund: ap
        .input(z.object({ customerId: z.string(), amount: z.number() }))
        .meta({
          agent: {
            description: "Refund an order.",
            expose: { direct: true },
            sideEffect: "write",
            risk: "high",
            approval: { required: true, type: "manager", grants: { maxUses: 10, maxTtlMs: HOUR, scopes: ["conversation", "actor"] } },
          },
        })
        .handler(({ input }) => {
          ran.push(input);
          return { refunded: input.amount };
        }),
    },
  }),
});

const pglite = usePglite(APPROVALS_DDL);

function bootRuntime(query: PgQuery) {
  const coordinator = createPgApprovalCoordinator({ query });
  return createAgentRuntime({ governance, approvals: { coordinator, seal: { keys: [{ id: "k1", secret: "an-approval-seal-secret-of-at-least-32-bytes" }] } } });
}

describe("standing grants through the runtime over the PostgreSQL coordinator", () => {
  it("SI-13: a grant decided with an approval in one conversation covers the next calls there, after a restart, until its uses run out", async () => {
    const first = bootRuntime(pglite.query);
    const asked = await first.invoke("orders.refund", { customerId: "c_ada", amount: 40 }, { actor: dana, context: {}, conversationId: "chat_1" });
    expect(asked.status).toBe("approval-required");
    if (asked.status !== "approval-required") return;
    expect((await first.approvals.get(asked.approval.id))!.conversationId).toBe("chat_1");
    await first.approvals.decide(asked.approval.id, {
      status: "approved",
      approver: priya,
      grant: { uses: 2, ttlMs: HOUR, scope: "conversation", conditions: [{ path: "/customerId", op: "eq", value: "c_ada" }], budget: { path: "/amount", max: 100 } },
    });
    expect((await first.resume(asked.approval.id, { context: {} })).status).toBe("completed");

    // A restarted process: a new runtime and coordinator over the same database.
    const counted = recordStatements(pglite.query);
    const second = bootRuntime(counted.query);
    const call = (input: { customerId: string; amount: number }, conversationId = "chat_1") =>
      second.invoke("orders.refund", input, { actor: dana, context: {}, conversationId });
    expect((await call({ customerId: "c_ada", amount: 30 }, "chat_2")).status).toBe("approval-required");
    expect((await call({ customerId: "c_bob", amount: 30 })).status).toBe("approval-required");
    expect((await call({ customerId: "c_ada", amount: 101 })).status).toBe("approval-required");

    counted.statements.length = 0;
    expect((await call({ customerId: "c_ada", amount: 30 })).status).toBe("completed");
    // One round trip takes the use: a single UPDATE of the grant; the approvals table is not touched.
    expect(counted.statements.filter(({ sql }) => /^update orpc_agent_grants\nset uses_left/.test(sql))).toHaveLength(1);
    expect(counted.statements.filter(({ sql }) => sql.includes("orpc_agent_approvals")).map(({ sql }) => sql)).toEqual([]);
    expect((await call({ customerId: "c_ada", amount: 30 })).status).toBe("completed");
    expect((await call({ customerId: "c_ada", amount: 1 })).status).toBe("approval-required");
    expect(ran).toHaveLength(3);
    const [grant] = await second.grants.list({ actor: dana });
    expect(grant).toMatchObject({ usesLeft: 0, spent: 60, status: "exhausted", conversationId: "chat_1" });
  });
});
