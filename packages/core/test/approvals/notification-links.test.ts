import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  defineGovernance,
  type Actor,
  type ApprovalNotification,
} from "../../src/index.js";

// A pending approval's notifications carry `decisionLink` when the runtime has `approvals.links`
// (docs/guides/notifying-approvers.md): it mints through runtime.approvals.decisionLink, so every SI-4 guard applies.
const dana: Actor = { id: "u_dana", kind: "user" };
const priya: Actor = { id: "u_priya", kind: "user" };
const LINK_KEY = { id: "links-1", secret: "a-decision-link-secret-of-32-bytes-or-more!" };

function setup(withLinks: boolean) {
  const seen: ApprovalNotification[] = [];
  const registry = createCapabilityRegistry({
    refund: agentProcedure(os)
      .input(z.object({ orderId: z.string() }))
      .meta(agentMeta({ description: "Refund.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
      .handler(({ input }) => ({ refunded: input.orderId })),
  });
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry }),
    approvals: { notify: (notification) => void seen.push(notification), ...(withLinks ? { links: { keys: [LINK_KEY] } } : {}) },
  });
  return { runtime, seen };
}

async function requestedNotification(s: ReturnType<typeof setup>) {
  const result = await s.runtime.invoke("refund", { orderId: "o1" }, { actor: dana, context: {} });
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
  await s.runtime.drainAudit();
  const notification = s.seen.find((n) => n.type === "approval.requested");
  if (notification === undefined) throw new Error("no approval.requested notification");
  return { notification, approvalId: result.approval.id };
}

describe("decision links in approval notifications", () => {
  it("a requested notification mints a link that decides as the approver it names, until the approval expires", async () => {
    const s = setup(true);
    const { notification, approvalId } = await requestedNotification(s);
    if (notification.type !== "approval.requested" || notification.decisionLink === undefined) throw new Error("expected decisionLink");
    const link = await notification.decisionLink(priya, "approve");
    const record = await s.runtime.approvals.get(approvalId);
    expect(link.expiresAt.getTime()).toBe(record!.expiresAt.getTime());
    const decided = await s.runtime.approvals.decideWithLink(link.token);
    expect(decided.status).toBe("approved");
    expect(decided.decision?.approver.id).toBe("u_priya");
  });

  it("the link it mints for the requester herself is refused, as decide would refuse her (SI-4)", async () => {
    const s = setup(true);
    const { notification } = await requestedNotification(s);
    if (notification.type !== "approval.requested" || notification.decisionLink === undefined) throw new Error("expected decisionLink");
    await expect(notification.decisionLink(dana, "approve")).rejects.toMatchObject({ code: "APPROVAL_SELF_APPROVAL" });
  });

  it("never travels in a serialized payload, and is absent without approvals.links", async () => {
    const withLinks = await requestedNotification(setup(true));
    expect(JSON.stringify(withLinks.notification)).not.toContain("decisionLink");
    const without = await requestedNotification(setup(false));
    expect("decisionLink" in without.notification).toBe(false);
  });
});
