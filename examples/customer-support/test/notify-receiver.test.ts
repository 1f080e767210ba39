// The demo's approvals receiver (src/notify/receiver.ts): it processes only webhooks whose Standard Webhooks signature
// and timestamp verify, and each webhook-id once. Deliveries come from @orpc-agent/notify's webhook notifier, and
// forgeries and replays are signed by hand with the `standardwebhooks` library.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { createWebhookNotifier, type SlackMessage } from "@orpc-agent/notify";
import { startApprovalsReceiver, type ApprovalsReceiver } from "../src/notify/receiver.js";

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
const slack: SlackMessage = { text: "Approval needed: orders.refund", blocks: [] };
const data = { type: "approval.requested", approvalId: "apr_1", slack, links: { approve: "http://127.0.0.1/approvals/decide?token=t" } };

/** A webhook signed with `secret` (the receiver's or not) at `at`, posted as a sender would. */
async function post(receiver: ApprovalsReceiver, secret: string, id: string, at: Date, body = JSON.stringify({ type: data.type, timestamp: at.toISOString(), data })): Promise<number> {
  const signature = new Webhook(secret).sign(id, at, body);
  const headers = { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
  return (await fetch(receiver.url, { method: "POST", headers, body })).status;
}

describe("the demo's approvals receiver", () => {
  let receiver: ApprovalsReceiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  it("verifies and keeps a delivery from the webhook notifier: its id, type, approval, Slack message and links", async () => {
    const secret = newSecret();
    receiver = await startApprovalsReceiver(secret);
    const notifier = createWebhookNotifier({ url: receiver.url, secret });
    await notifier.notify(data, { id: "apr_1.requested" });
    await notifier.flush();
    expect(receiver.received).toEqual([{ webhookId: "apr_1.requested", type: "approval.requested", approvalId: "apr_1", slack, links: data.links }]);
    expect(receiver.refused).toBe(0);
  });

  it("refuses a webhook signed with another secret, and processes nothing", async () => {
    receiver = await startApprovalsReceiver(newSecret());
    await expect(post(receiver, newSecret(), "msg_forged", new Date())).resolves.toBe(400);
    expect(receiver.received).toEqual([]);
    expect(receiver.refused).toBe(1);
  });

  it("refuses a body changed after signing, an unsigned request and a stale timestamp", async () => {
    const secret = newSecret();
    receiver = await startApprovalsReceiver(secret);
    const at = new Date();
    const signed = JSON.stringify({ type: data.type, timestamp: at.toISOString(), data });
    const signature = new Webhook(secret).sign("msg_edit", at, signed);
    const tampered = signed.replace("apr_1", "apr_2");
    const headers = { "webhook-id": "msg_edit", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
    expect((await fetch(receiver.url, { method: "POST", headers, body: tampered })).status).toBe(400);
    expect((await fetch(receiver.url, { method: "POST", body: signed })).status).toBe(400);
    await expect(post(receiver, secret, "msg_old", new Date(Date.now() - 10 * 60 * 1000))).resolves.toBe(400);
    expect(receiver.received).toEqual([]);
    expect(receiver.refused).toBe(3);
  });

  it("a replayed delivery (same webhook-id, validly signed) is acknowledged and not processed again", async () => {
    const secret = newSecret();
    receiver = await startApprovalsReceiver(secret);
    await expect(post(receiver, secret, "msg_once", new Date())).resolves.toBe(204);
    await expect(post(receiver, secret, "msg_once", new Date())).resolves.toBe(204);
    expect(receiver.received.map((r) => r.webhookId)).toEqual(["msg_once"]);
    expect(receiver.duplicates).toBe(1);
  });
});
