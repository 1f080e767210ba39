import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  type ApprovalCoordinator,
} from "@orpc-agent/core";
import { APPROVALS_DDL, createPgApprovalCoordinator } from "../../src/index.js";
import { ap } from "../support/orpc.js";
import { usePglite } from "../support/pglite.js";

// The coordinator under the real runtime (docs/architecture/spec/postgres.md#postgres-9-4): restart survival and the JSON
// round-trip caveat for Date inputs (docs/architecture/spec/postgres.md#postgres-6).
const requester = { id: "user_requester", kind: "user" } as const;
const manager = { id: "user_manager", kind: "user" } as const;

const executions: unknown[] = [];
const gated = { sideEffect: "write", risk: "high", approval: { required: true } } as const;

const governance = defineGovernance({
  registry: createCapabilityRegistry({
    orders: {
      refund: ap
        .input(z.object({ orderId: z.string(), amount: z.number() }))
        .meta({ agent: { description: "Refund an order.", expose: { direct: true }, ...gated } })
        .handler(({ input, context }) => {
          executions.push(input);
          return { refunded: input.amount, executionId: context.agent!.executionId };
        }),
    },
    meetings: {
      scheduleAtDate: ap
        .input(z.object({ title: z.string(), at: z.date() }))
        .meta({ agent: { description: "Schedule (Date input).", expose: { direct: true }, ...gated } })
        .handler(({ input }) => ({ scheduled: input.at.toISOString() })),
      scheduleAtIso: ap
        .input(z.object({ title: z.string(), at: z.iso.datetime() }))
        .meta({ agent: { description: "Schedule (ISO input).", expose: { direct: true }, ...gated } })
        .handler(({ input }) => ({ scheduled: input.at })),
    },
  }),
});

const { query } = usePglite(APPROVALS_DDL);

/** A fresh runtime over a fresh coordinator: what a restarted process builds. */
function bootRuntime() {
  const coordinator: ApprovalCoordinator = createPgApprovalCoordinator({ query });
  return createAgentRuntime({ governance, approvals: { coordinator, seal: false } });
}

async function requestApproval(runtime: ReturnType<typeof bootRuntime>, id: string, input: unknown): Promise<string> {
  const result = await runtime.invoke(id, input, { actor: requester, context: {} });
  expect(result.status).toBe("approval-required");
  if (result.status !== "approval-required") throw new Error("unreachable");
  return result.approval.id;
}

describe("the Postgres coordinator under createAgentRuntime", () => {
  it("survives a restart: a second coordinator sees the pending record, and its decision resumes exactly once", async () => {
    const approvalId = await requestApproval(bootRuntime(), "orders.refund", { orderId: "ord_7", amount: 12.5 });
    expect(executions).toEqual([]);

    // Another process over the same database.
    const coordinator = createPgApprovalCoordinator({ query });
    const stored = (await coordinator.get(approvalId))!;
    expect(stored).toMatchObject({
      status: "pending",
      capabilityId: "orders.refund",
      actor: requester,
      input: { orderId: "ord_7", amount: 12.5 },
    });

    const runtime = createAgentRuntime({ governance, approvals: { coordinator, seal: false } });
    await runtime.approvals.decide(approvalId, { status: "approved", approver: manager });
    const resumed = await runtime.resume(approvalId, { context: {} });
    expect(resumed.status).toBe("completed");
    if (resumed.status !== "completed") return;
    expect(resumed.output).toEqual({ refunded: 12.5, executionId: resumed.executionId });
    expect(executions).toEqual([{ orderId: "ord_7", amount: 12.5 }]);

    const again = await bootRuntime().resume(approvalId, { context: {} });
    expect(again.status === "failed" && again.error.code).toBe("APPROVAL_CONSUMED");
    expect(executions).toHaveLength(1);

    const consumed = (await createPgApprovalCoordinator({ query }).get(approvalId))!;
    expect(consumed.status).toBe("consumed");
    expect(consumed.consumedByExecutionId).toBe(resumed.executionId);
  });

  it("self-approval is still refused through runtime.approvals, leaving the stored record pending (SI-4)", async () => {
    const runtime = bootRuntime();
    const approvalId = await requestApproval(runtime, "orders.refund", { orderId: "ord_8", amount: 1 });
    await expect(runtime.approvals.decide(approvalId, { status: "approved", approver: requester })).rejects.toMatchObject({
      code: "APPROVAL_SELF_APPROVAL",
    });
    expect((await createPgApprovalCoordinator({ query }).get(approvalId))!.status).toBe("pending");
  });

  it("a z.date() input revives as a string: resume fails re-validation and the record stays approved (postgres.md §6)", async () => {
    const runtime = bootRuntime();
    const approvalId = await requestApproval(runtime, "meetings.scheduleAtDate", {
      title: "review",
      at: new Date("2031-03-04T05:06:07.008Z"),
    });
    expect((await createPgApprovalCoordinator({ query }).get(approvalId))!.input).toEqual({
      title: "review",
      at: "2031-03-04T05:06:07.008Z",
    });
    await runtime.approvals.decide(approvalId, { status: "approved", approver: manager });

    const resumed = await bootRuntime().resume(approvalId, { context: {} });
    expect(resumed.status).toBe("failed");
    if (resumed.status === "failed") expect(resumed.error.code).toBe("INPUT_INVALID");
    expect((await createPgApprovalCoordinator({ query }).get(approvalId))!.status).toBe("approved");
  });

  it("the same flow with z.iso.datetime() completes", async () => {
    const runtime = bootRuntime();
    const approvalId = await requestApproval(runtime, "meetings.scheduleAtIso", {
      title: "review",
      at: "2031-03-04T05:06:07.008Z",
    });
    await runtime.approvals.decide(approvalId, { status: "approved", approver: manager });
    const resumed = await bootRuntime().resume(approvalId, { context: {} });
    expect(resumed).toMatchObject({ status: "completed", output: { scheduled: "2031-03-04T05:06:07.008Z" } });
    expect((await createPgApprovalCoordinator({ query }).get(approvalId))!.status).toBe("consumed");
  });
});
