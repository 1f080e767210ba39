import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPgWebhookOutbox, createWebhookNotifier, WEBHOOK_OUTBOX_DDL, webhookOutboxDdl } from "../../src/index.js";
import { usePgSchema } from "../support/pg-schema.js";
import { describeOutboxContract } from "./outbox-contract.js";
import { newSecret, startWebhookReceiver, type Receiver } from "../support/webhook-receiver.js";

// The outbox on the real server: rows survive the notifier, two drainers split due rows without ever sharing one,
// claims are fenced, given-up rows stay visible.
const tableOf = (schema: string) => `${schema}.webhook_outbox`;
const server = usePgSchema("notify_outbox", (schema) => [webhookOutboxDdl(tableOf(schema)), webhookOutboxDdl(tableOf(schema))], { max: 12 });
const outbox = () => createPgWebhookOutbox({ query: server.query, table: tableOf(server.name) });

let receiver: Receiver | undefined;
beforeEach(async () => {
  await server.query(`truncate table ${tableOf(server.name)}`, []);
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describeOutboxContract("the PostgreSQL outbox (TEST_DATABASE_URL)", async () => {
  await server.query(`truncate table ${tableOf(server.name)}`, []);
  return outbox();
});

describe("PostgreSQL webhook outbox (TEST_DATABASE_URL)", () => {
  it("two drainers racing over 50 rows deliver each exactly once", async () => {
    const secret = newSecret();
    // A slow receiver keeps both drainers' requests in flight at once.
    receiver = await startWebhookReceiver(secret, { delayMs: 5 });
    const options = { url: receiver.url, secret, deliverOnNotify: false };
    // Two instances: each its own notifier over its own outbox object, one table between them.
    const first = createWebhookNotifier({ ...options, outbox: outbox() });
    const second = createWebhookNotifier({ ...options, outbox: outbox() });
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push((await (i % 2 === 0 ? first : second).notify({ type: "approval.requested", n: i })).id);

    const [a, b] = await Promise.all([first.drain(), second.drain()]);

    expect(a.delivered + b.delivered).toBe(50);
    expect(receiver.refused).toEqual([]);
    expect(receiver.verified.map((d) => d.id).sort()).toEqual([...ids].sort());
    const rows = await outbox().list({ endpoint: receiver.url });
    expect(rows).toHaveLength(50);
    expect(rows.every((row) => row.status === "delivered" && row.attempts === 1 && row.deliveredAt instanceof Date)).toBe(true);
  });

  it("a row outlives its notifier: a new one on another 'instance' drains what the first enqueued", async () => {
    const secret = newSecret();
    receiver = await startWebhookReceiver(secret);
    const gone = createWebhookNotifier({ url: receiver.url, secret, outbox: outbox(), deliverOnNotify: false });
    const { id } = await gone.notify({ type: "approval.requested", approvalId: "apr_1" });
    expect(await gone.status(id)).toMatchObject({ status: "pending", attempts: 0 });

    const later = createWebhookNotifier({ url: receiver.url, secret, outbox: outbox() });
    expect(await later.drain()).toEqual({ delivered: 1, retrying: 0, failed: 0 });
    expect(receiver.processed.map((d) => d.id)).toEqual([id]);
  });

  it("a failure schedules the next attempt; after the last one the row is kept as failed and listed", async () => {
    const secret = newSecret();
    receiver = await startWebhookReceiver(secret, { answer: () => 503 });
    let clock = new Date();
    const notifier = createWebhookNotifier({
      url: receiver.url,
      secret,
      outbox: outbox(),
      deliverOnNotify: false,
      now: () => clock,
      retry: { attempts: 2, baseDelayMs: 1_000, maxDelayMs: 1_000, random: () => 0.5 },
    });
    const { id } = await notifier.notify({ type: "approval.requested", approvalId: "apr_1" });

    expect(await notifier.drain()).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    const scheduled = await notifier.status(id);
    expect(scheduled).toMatchObject({ status: "pending", attempts: 1, lastStatus: 503, lastError: "HTTP 503" });
    expect(scheduled!.nextAttemptAt.getTime()).toBe(clock.getTime() + 500);
    expect(await notifier.drain()).toEqual({ delivered: 0, retrying: 0, failed: 0 });

    clock = new Date(clock.getTime() + 500);
    expect(await notifier.drain()).toEqual({ delivered: 0, retrying: 0, failed: 1 });
    const failed = await notifier.failed();
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ id, status: "failed", attempts: 2, lastStatus: 503, lastError: "HTTP 503 (gave up after 2 attempts)" });
    expect(receiver.verified.map((d) => d.id)).toEqual([id, id]);
  });

  it("WEBHOOK_OUTBOX_DDL is idempotent and splits into single statements", () => {
    expect(WEBHOOK_OUTBOX_DDL).toMatch(/^create table if not exists orpc_agent_webhook_outbox \(/);
    const statements = WEBHOOK_OUTBOX_DDL.split(";").map((s) => s.trim()).filter(Boolean);
    expect(statements).toHaveLength(3);
    expect(statements.every((s) => / if not exists /.test(s))).toBe(true);
    expect(() => webhookOutboxDdl("Bad-Name")).toThrow(/Invalid table name/);
    expect(() => createPgWebhookOutbox({ query: server.query, table: "x; drop table y" })).toThrow(/Invalid table name/);
  });
});
