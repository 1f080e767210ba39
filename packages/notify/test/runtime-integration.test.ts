// The whole path with a real runtime: core raises approval notifications (approvals.notify), this package delivers
// them as a signed webhook, a Slack message and an email, and the approver decides through the Slack button's link.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { os } from "@orpc/server";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, createInMemoryApprovalCoordinator, defineGovernance, type Actor, type ApprovalNotification } from "@orpc-agent/core";
import type { ActionsBlock, Button } from "@slack/types";
import nodemailer from "nodemailer";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createEmailNotifier, createWebhookNotifier, postToSlack, slackMessage, type SlackMessage } from "../src/index.js";
import { mimePart, startSmtpReceiver } from "./support/smtp-receiver.js";
import { newSecret, startWebhookReceiver, type Receiver } from "./support/webhook-receiver.js";

const dana: Actor = { id: "user_dana", kind: "user", displayName: "Dana" };
const priya: Actor = { id: "user_priya", kind: "user", displayName: "Priya" };
const CARD = "tok_card_never_shown";

const refund = agentProcedure(os)
  .meta({
    agent: {
      description: "Refund part of an order.",
      expose: { direct: true },
      sideEffect: "write",
      risk: "high",
      approval: { required: true },
      redact: { approvalInput: (input) => ({ orderId: (input as { orderId: string }).orderId, amountCents: (input as { amountCents: number }).amountCents }) },
    },
  })
  .input(z.object({ orderId: z.string(), amountCents: z.number().int(), cardToken: z.string() }))
  .handler(({ input }) => ({ refunded: input.amountCents }));

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function slackReceiver(): Promise<{ url: string; messages: SlackMessage[] }> {
  const messages: SlackMessage[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      messages.push(JSON.parse(body));
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T/B/X`, messages };
}

describe("approval notifications from a real runtime", () => {
  it("requested and decided reach a verifying webhook receiver, Slack and email; the Slack button's link decides", async () => {
    const secret = newSecret();
    const hook: Receiver = await startWebhookReceiver(secret);
    closers.push(() => hook.close());
    const slack = await slackReceiver();
    const smtp = await startSmtpReceiver();
    closers.push(() => smtp.close());

    const webhook = createWebhookNotifier({ url: hook.url, secret });
    const email = createEmailNotifier({ transport: nodemailer.createTransport({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true }), from: "approvals@shop.example", to: "priya@shop.example" });
    const runtime = createAgentRuntime({
      governance: defineGovernance({ registry: createCapabilityRegistry({ orders: { refund } }) }),
      approvals: {
        coordinator: createInMemoryApprovalCoordinator(),
        links: { keys: [{ id: "links-test", secret: randomBytes(32).toString("base64url") }] },
        notify: async (notification: ApprovalNotification) => {
          await webhook.notify(notification);
          await email(notification);
          // Links for Priya, the approver this Slack channel reaches; the app builds the URLs around the tokens.
          const links =
            notification.view.status === "pending"
              ? {
                  approve: `https://shop.example/decide?token=${(await runtime.approvals.decisionLink(notification.approvalId, { approver: priya, action: "approve", ttlMs: 3_600_000 })).token}`,
                  reject: `https://shop.example/decide?token=${(await runtime.approvals.decisionLink(notification.approvalId, { approver: priya, action: "reject", ttlMs: 3_600_000 })).token}`,
                }
              : undefined;
          await postToSlack(slack.url, slackMessage(notification.view, { kind: notification.type, ...(links === undefined ? {} : { links }) }));
        },
      },
    });

    const result = await runtime.invoke("orders.refund", { orderId: "ord_42", amountCents: 32000, cardToken: CARD }, { actor: dana, context: {} });
    expect(result.status).toBe("approval-required");
    await runtime.drainAudit();
    await webhook.flush();

    // The webhook: verified, the notification as data, the input only as redacted.
    expect(hook.processed).toHaveLength(1);
    const delivered = hook.processed[0]!.payload as { type: string; data: { type: string; approvalId: string; view: { input: { fields: { label: string; value: unknown }[] } } } };
    expect(delivered.type).toBe("approval.requested");
    expect(delivered.data.view.input.fields.map((field) => [field.label, field.value])).toEqual([["orderId", "ord_42"], ["amountCents", 32000]]);
    expect(hook.processed[0]!.body).not.toContain(CARD);

    // Email and Slack, neither with the card token.
    expect(smtp.mails).toHaveLength(1);
    expect(mimePart(smtp.mails[0]!.raw, "text/plain")).toContain("Requester: Dana (user_dana)");
    expect(smtp.mails[0]!.raw).not.toContain(CARD);
    expect(slack.messages).toHaveLength(1);
    expect(JSON.stringify(slack.messages[0])).not.toContain(CARD);
    const actions = slack.messages[0]!.blocks.find((block): block is ActionsBlock => block.type === "actions")!;
    const approve = (actions.elements as Button[]).find((button) => button.action_id === "approve")!;

    // Priya opens the approve button's URL; the app hands its token back to the runtime.
    const token = new URL(approve.url!).searchParams.get("token")!;
    const decided = await runtime.approvals.decideWithLink(token);
    expect(decided).toMatchObject({ status: "approved", decision: { approver: { id: "user_priya" } } });
    await runtime.drainAudit();
    await webhook.flush();

    expect(hook.processed.map((d) => (d.payload as { type: string }).type)).toEqual(["approval.requested", "approval.decided"]);
    expect(slack.messages[1]!.text).toMatch(/^Approved: orders\.refund/);
    expect(slack.messages[1]!.blocks.some((block) => block.type === "actions")).toBe(false);
    expect(smtp.mails).toHaveLength(2);
  });
});
