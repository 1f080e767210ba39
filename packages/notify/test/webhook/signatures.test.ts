import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryWebhookOutbox, createWebhookNotifier, type WebhookOutbox } from "../../src/index.js";
import { newSecret, startWebhookReceiver, type Receiver } from "../support/webhook-receiver.js";

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("Standard Webhooks signatures", () => {
  it("a delivery verifies with the standardwebhooks library and carries { type, timestamp, data }", async () => {
    const secret = newSecret();
    receiver = await startWebhookReceiver(secret);
    const notifier = createWebhookNotifier({ url: receiver.url, secret });
    const event = { type: "approval.requested", approvalId: "apr_1", title: "Refund <b>320</b> & more" };

    const { id } = await notifier.notify(event);
    await notifier.flush();

    expect(receiver.refused).toEqual([]);
    expect(receiver.processed).toHaveLength(1);
    const [delivery] = receiver.processed;
    expect(delivery!.id).toBe(id);
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(delivery!.payload).toEqual({ type: "approval.requested", timestamp: expect.any(String), data: event });
    expect(await notifier.status(id)).toMatchObject({ status: "delivered", attempts: 1, type: "approval.requested" });
  });

  it("the receiver refuses a tampered body, a stale timestamp, another secret's signature and a replayed webhook-id", async () => {
    const secret = newSecret();
    receiver = await startWebhookReceiver(secret);
    const notifier = createWebhookNotifier({ url: receiver.url, secret });
    await notifier.notify({ type: "approval.decided", approvalId: "apr_2", status: "approved" });
    await notifier.flush();
    const [delivery] = receiver.processed;
    const headers = (d: { id: string; timestamp: string; signature: string }) => ({
      "content-type": "application/json",
      "webhook-id": d.id,
      "webhook-timestamp": d.timestamp,
      "webhook-signature": d.signature,
    });
    const post = (body: string, h: Record<string, string>) => fetch(receiver!.url, { method: "POST", body, headers: h });

    const tampered = delivery!.body.replace('"approved"', '"rejected"');
    expect(tampered).not.toBe(delivery!.body);
    expect((await post(tampered, headers(delivery!))).status).toBe(400);

    // Correctly signed, but ten minutes old: outside the library's five-minute tolerance.
    const stale = new Date(Date.now() - 10 * 60_000);
    const staleSignature = new Webhook(secret).sign("msg_stale", stale, delivery!.body);
    const staleHeaders = { id: "msg_stale", timestamp: String(Math.floor(stale.getTime() / 1000)), signature: staleSignature };
    expect((await post(delivery!.body, headers(staleHeaders))).status).toBe(400);

    const foreign = new Webhook(newSecret()).sign("msg_foreign", new Date(), delivery!.body);
    const foreignHeaders = { id: "msg_foreign", timestamp: String(Math.floor(Date.now() / 1000)), signature: foreign };
    expect((await post(delivery!.body, headers(foreignHeaders))).status).toBe(400);

    // The very request the notifier sent, replayed: it verifies, and the receiver drops it by its webhook-id.
    expect((await post(delivery!.body, headers(delivery!))).status).toBe(409);

    expect(receiver.refused.map((r) => r.reason)).toEqual([
      "No matching signature found",
      "Message timestamp too old",
      "No matching signature found",
      "replayed webhook-id",
    ]);
    expect(receiver.processed).toHaveLength(1);
  });

  it("refuses a secret that is not a Standard Webhooks secret, and a URL that is not http(s)", () => {
    expect(() => createWebhookNotifier({ url: "https://example.com/hook", secret: "hunter2" })).toThrow(/whsec_/);
    expect(() => createWebhookNotifier({ url: "ftp://example.com/hook", secret: newSecret() })).toThrow(/http\(s\) URL/);
  });

  it("a message notified while a background run is ending gets a run of its own", async () => {
    const secret = newSecret();
    receiver = await startWebhookReceiver(secret);
    const inner = createInMemoryWebhookOutbox();
    let late: Promise<{ id: string }> | undefined;
    // The run asks whether anything is still pending, is told no, and a notify lands before it has ended.
    const outbox: WebhookOutbox = {
      ...inner,
      async nextDueAt(endpoint) {
        const due = await inner.nextDueAt(endpoint);
        if (due === null && late === undefined) {
          late = notifier.notify({ type: "approval.decided", n: 2 });
          await late;
        }
        return due;
      },
    };
    const notifier = createWebhookNotifier({ url: receiver.url, secret, outbox });

    const first = await notifier.notify({ type: "approval.requested", n: 1 });
    await notifier.flush();

    const second = await late!;
    expect(receiver.processed.map((d) => d.id)).toEqual([first.id, second.id]);
  });

  it("notify with an id enqueues once: a second notify with the id adds nothing", async () => {
    const secret = newSecret();
    receiver = await startWebhookReceiver(secret);
    const notifier = createWebhookNotifier({ url: receiver.url, secret });
    const first = await notifier.notify({ type: "approval.expiring", approvalId: "apr_3" }, { id: "apr_3.expiring" });
    const second = await notifier.notify({ type: "approval.expiring", approvalId: "apr_3" }, { id: "apr_3.expiring" });
    await notifier.flush();
    expect(first).toEqual({ id: "apr_3.expiring", enqueued: true });
    expect(second).toEqual({ id: "apr_3.expiring", enqueued: false });
    expect(receiver.processed.map((d) => d.id)).toEqual(["apr_3.expiring"]);
  });
});
