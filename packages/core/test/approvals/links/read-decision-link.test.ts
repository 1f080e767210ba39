// runtime.approvals.readDecisionLink: a link page shows what the token says, checked as decideWithLink checks it,
// and reading decides and spends nothing (docs/guides/decision-links.md).
import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { agentMeta, agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance, type Actor } from "../../../src/index.js";

const dana: Actor = { id: "u_dana", kind: "user" };
const priya: Actor = { id: "u_priya", kind: "user", displayName: "Priya" };
const KEY = { id: "links-1", secret: "a-decision-link-secret-of-32-bytes-or-more!" };

function setup(options: { links?: boolean; clock?: { now: Date } } = {}) {
  const registry = createCapabilityRegistry({
    refund: agentProcedure(os)
      .input(z.object({ orderId: z.string() }))
      .meta(agentMeta({ description: "Refund.", expose: { direct: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
      .handler(({ input }) => ({ refunded: input.orderId })),
  });
  const clock = options.clock;
  return createAgentRuntime({
    governance: defineGovernance({ registry }),
    approvals: options.links === false ? {} : { links: { keys: [KEY] } },
    ...(clock === undefined ? {} : { now: () => clock.now }),
  });
}

async function pending(runtime: ReturnType<typeof setup>) {
  const result = await runtime.invoke("refund", { orderId: "o1" }, { actor: dana, context: {} });
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
  return result.approval.id;
}

describe("runtime.approvals.readDecisionLink", () => {
  it("returns the approval, approver, action and expiry the token binds, and decides nothing", async () => {
    const runtime = setup();
    const id = await pending(runtime);
    const link = await runtime.approvals.decisionLink(id, { approver: priya, action: "reject", ttlMs: 60_000 });
    expect(await runtime.approvals.readDecisionLink(link.token)).toEqual({ approvalId: id, approver: priya, action: "reject", expiresAt: link.expiresAt });
    expect((await runtime.approvals.get(id))!.status).toBe("pending");
    // Still usable after any number of reads.
    await runtime.approvals.readDecisionLink(link.token);
    expect((await runtime.approvals.decideWithLink(link.token)).status).toBe("rejected");
  });

  it("refuses a forged token, an expired one and a runtime without links, with decideWithLink's codes", async () => {
    const clock = { now: new Date() };
    const runtime = setup({ clock });
    const id = await pending(runtime);
    const { token } = await runtime.approvals.decisionLink(id, { approver: priya, action: "approve", ttlMs: 1_000 });
    const [version, key, payload, mac] = token.split(".");
    const forged = `${version}.${key}.${payload}.${mac!.startsWith("A") ? "B" : "A"}${mac!.slice(1)}`;
    await expect(runtime.approvals.readDecisionLink(forged)).rejects.toMatchObject({ code: "APPROVAL_LINK_INVALID" });
    clock.now = new Date(clock.now.getTime() + 1_000);
    await expect(runtime.approvals.readDecisionLink(token)).rejects.toMatchObject({ code: "APPROVAL_LINK_EXPIRED" });
    await expect(setup({ links: false }).approvals.readDecisionLink(token)).rejects.toMatchObject({ code: "APPROVAL_LINKS_DISABLED" });
  });
});
