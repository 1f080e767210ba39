// The README's example, verbatim except for this import path: the package's own tsconfig cannot resolve its
// self-name, so the test imports the entry file that "@orpc-agent/testing" points to.
import { os } from "@orpc/server";
import { z } from "zod";
import { expect, it } from "vitest";
import { agentMeta, agentProcedure, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createAgentTestRuntime, fakeActor } from "../src/index.js";

const ap = agentProcedure(os);
const governance = defineGovernance({
  registry: createCapabilityRegistry({
    orders: {
      refund: ap
        .input(z.object({ orderId: z.string(), amount: z.number().positive() }))
        .meta(agentMeta({
          description: "Refund an order.",
          expose: { aiSdk: true },
          sideEffect: "write",
          risk: "high",
          approval: { required: true },
        }))
        .handler(({ input }) => ({ refunded: input.amount })),
    },
  }),
});

it("a refund requested through the AI SDK waits for a manager, then runs exactly once", async () => {
  const t = createAgentTestRuntime({ governance, actor: fakeActor({ id: "u_dana" }) });

  const pending = await t.invoke("orders.refund", { orderId: "o1", amount: 25 }, { surface: "aiSdk" });
  if (pending.status !== "approval-required") throw new Error(`unexpected ${pending.status}`);

  // The requester cannot approve their own refund (SI-4); a manager can.
  await expect(t.approvals.approve(pending.approval.id, t.defaultActor)).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
  await t.approvals.approve(pending.approval.id, fakeActor({ id: "u_manager" }));

  expect(await t.resume(pending.approval.id)).toMatchObject({ status: "completed", output: { refunded: 25 } });
  expect(await t.resume(pending.approval.id)).toMatchObject({ status: "failed", error: { code: "APPROVAL_CONSUMED" } });
  expect(t.audit.types()).toEqual([
    "capability.requested",
    "capability.approval_requested",
    "capability.approved",
    "capability.started",
    "capability.completed",
    "capability.failed",
  ]);
});
