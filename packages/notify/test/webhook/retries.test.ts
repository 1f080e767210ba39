import { createServer as createHttpServer, type RequestListener, type Server } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createWebhookNotifier } from "../../src/index.js";
import { retryPolicy } from "../../src/webhook/retry.js";
import { newSecret, startWebhookReceiver, type Receiver } from "../support/webhook-receiver.js";

// Tiny backoff: the tests wait for outcomes (flush), never for a time.
const fast = { baseDelayMs: 1, maxDelayMs: 2 };

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("retries", () => {
  it("a receiver failing twice (503) then succeeding gets three signed attempts with one webhook-id", async () => {
    const secret = newSecret();
    receiver = await startWebhookReceiver(secret, { answer: (_, n) => (n <= 2 ? 503 : 204) });
    const notifier = createWebhookNotifier({ url: receiver.url, secret, retry: fast });

    const { id } = await notifier.notify({ type: "approval.requested", approvalId: "apr_1" });
    await notifier.flush();

    expect(receiver.verified.map((d) => d.id)).toEqual([id, id, id]);
    expect(new Set(receiver.verified.map((d) => d.body)).size).toBe(1);
    expect(receiver.processed).toHaveLength(1);
    expect(await notifier.status(id)).toMatchObject({ status: "delivered", attempts: 3 });
    expect(await notifier.failed()).toEqual([]);
  });

  it("429 is retried; another 4xx is final, and the given-up message stays visible as failed", async () => {
    const secret = newSecret();
    const tries = new Map<string, number>();
    receiver = await startWebhookReceiver(secret, {
      answer: (d) => {
        tries.set(d.id, (tries.get(d.id) ?? 0) + 1);
        if ((d.payload as { data: { approvalId: string } }).data.approvalId === "apr_bad") return 422;
        return tries.get(d.id) === 1 ? 429 : 200;
      },
    });
    const notifier = createWebhookNotifier({ url: receiver.url, secret, retry: fast });

    const busy = await notifier.notify({ type: "approval.requested", approvalId: "apr_busy" });
    const refused = await notifier.notify({ type: "approval.requested", approvalId: "apr_bad" });
    await notifier.flush();

    expect(await notifier.status(busy.id)).toMatchObject({ status: "delivered", attempts: 2 });
    const failed = await notifier.failed();
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ id: refused.id, status: "failed", attempts: 1, lastStatus: 422, lastError: "HTTP 422" });
  });

  it("network errors are retried up to the attempt limit, then the message is failed", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hook`;
    const notifier = createWebhookNotifier({ url, secret: newSecret(), retry: { ...fast, attempts: 3 } });

    const { id } = await notifier.notify({ type: "approval.escalated", approvalId: "apr_1" });
    await notifier.flush();

    const row = await notifier.status(id);
    expect(row).toMatchObject({ status: "failed", attempts: 3 });
    expect(row?.lastError).toMatch(/^request failed: .*\(gave up after 3 attempts\)$/);
    expect(row?.lastStatus).toBeUndefined();
  });

  it("drain() alone delivers when background delivery is off, and reports what it did", async () => {
    const secret = newSecret();
    receiver = await startWebhookReceiver(secret, { answer: (_, n) => (n === 1 ? 500 : 200) });
    // A clock that moves only when the test moves it (from the real now: the receiver checks the signed timestamp), so
    // the retry, scheduled 500 ms after the failure, is not due until the test says so.
    let clock = new Date();
    const notifier = createWebhookNotifier({
      url: receiver.url,
      secret,
      deliverOnNotify: false,
      now: () => clock,
      retry: { baseDelayMs: 1_000, maxDelayMs: 1_000, random: () => 0.5 },
    });
    await notifier.notify({ type: "approval.requested", approvalId: "apr_1" });
    await notifier.notify({ type: "approval.requested", approvalId: "apr_2" });

    expect(await notifier.drain()).toEqual({ delivered: 1, retrying: 1, failed: 0 });
    expect(await notifier.drain()).toEqual({ delivered: 0, retrying: 0, failed: 0 });
    clock = new Date(clock.getTime() + 500);
    expect(await notifier.drain()).toEqual({ delivered: 1, retrying: 0, failed: 0 });
  });

  it("the backoff grows exponentially under its cap, with the jitter scaling it down", () => {
    const top = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0.9999 });
    expect([1, 2, 3, 4, 5, 6].map((n) => top.delayAfter(n))).toEqual([99, 199, 399, 799, 999, 999]);
    const half = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0.5 });
    expect([1, 2, 3].map((n) => half.delayAfter(n))).toEqual([50, 100, 200]);
    expect(() => retryPolicy({ attempts: 0 })).toThrow(/attempts/);
  });
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("what a receiver says about retrying", () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
  const listen = async (handler: RequestListener) => {
    const server = createHttpServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  };
  const clock = new Date();
  const options = (url: string, maxDelayMs: number) => ({ url, secret: newSecret(), deliverOnNotify: false, now: () => clock, retry: { baseDelayMs: 10, maxDelayMs, random: () => 0 } });

  it("a Retry-After is honoured up to maxDelayMs; without one the backoff decides", async () => {
    const limited = await listen((_, res) => res.writeHead(429, { "retry-after": "30" }).end());
    const plain = await listen((_, res) => res.writeHead(503).end());
    const polite = createWebhookNotifier(options(limited, 60_000));
    const capped = createWebhookNotifier(options(limited, 5_000));
    const backoff = createWebhookNotifier(options(plain, 60_000));
    const ids = await Promise.all([polite, capped, backoff].map(async (notifier) => (await notifier.notify({ type: "approval.requested" })).id));

    for (const notifier of [polite, capped, backoff]) expect(await notifier.drain()).toEqual({ delivered: 0, retrying: 1, failed: 0 });

    const due = async (notifier: typeof polite, id: string) => (await notifier.status(id))!.nextAttemptAt.getTime() - clock.getTime();
    expect(await due(polite, ids[0]!)).toBe(30_000);
    expect(await due(capped, ids[1]!)).toBe(5_000);
    // Jitter 0 still waits 1 ms: one drain never tries a message twice.
    expect(await due(backoff, ids[2]!)).toBe(1);
  });

  it("a receiver that never answers times out, and the timeout is retried like a network error", async () => {
    const silent = await listen(() => {});
    const notifier = createWebhookNotifier({ url: silent, secret: newSecret(), timeoutMs: 50, retry: { ...fast, attempts: 2 } });
    const { id } = await notifier.notify({ type: "approval.requested" });
    await notifier.flush();
    const row = await notifier.status(id);
    expect(row).toMatchObject({ status: "failed", attempts: 2 });
    expect(row!.lastError).toMatch(/^request failed: .*time/i);
  });
});
