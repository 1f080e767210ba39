import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { createInMemoryWebhookOutbox } from "../outbox/in-memory-outbox.js";
import type { ClaimedMessage, OutboxRow, Settlement, WebhookOutbox } from "../outbox/types.js";
import { retryPolicy, type WebhookRetryOptions } from "./retry.js";
import { sendWebhook } from "./send-webhook.js";

export type WebhookNotifierOptions = {
  /** The receiver's URL (http or https). */
  url: string;
  /** The Standard Webhooks secret: `whsec_` followed by base64 (24 to 64 random bytes), shared with the receiver. */
  secret: string;
  /** Where messages wait. @default an in-memory outbox (lost on restart; see `createPgWebhookOutbox`) */
  outbox?: WebhookOutbox;
  /** @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  retry?: WebhookRetryOptions;
  /** One attempt's time limit; a timeout is retried like a network error. @default 15_000 */
  timeoutMs?: number;
  /**
   * After `notify`, deliver in the background (due retries included, waiting between them in this process). Set
   * false when a worker calls `drain()` instead. @default true
   */
  deliverOnNotify?: boolean;
  /** Errors of the background delivery (the outbox unreachable, …): never thrown to the caller of `notify`. */
  onError?: (error: unknown) => void;
  /** @default () => new Date() */
  now?: () => Date;
  /** How the background delivery waits for the next due retry. @default setTimeout, unref'd */
  sleep?: (ms: number) => Promise<void>;
};

/** What one `drain()` did. */
export type DrainReport = { delivered: number; retrying: number; failed: number };

/** An event as the notifier sends it: `type` names it; the whole object becomes the body's `data`. */
export type WebhookEvent = { readonly type: string };

/**
 * Delivers events as webhooks signed per the Standard Webhooks specification, through an outbox, with retries.
 */
export type WebhookNotifier = {
  /**
   * Enqueues `event` as `{ type, timestamp, data: event }` (JSON) and, unless `deliverOnNotify` is false, starts
   * delivering in the background. Resolves once enqueued, with the message's `webhook-id` (the same on every retry);
   * `options.id` makes enqueueing idempotent (a second `notify` with the id adds nothing).
   */
  notify<E extends WebhookEvent>(event: E, options?: { id?: string }): Promise<{ id: string; enqueued: boolean }>;
  /**
   * Sends every message of this endpoint due now, on any instance that shares the outbox: delivered, scheduled for a
   * retry (network error, timeout, 5xx, 429) or given up (another 4xx or redirect, or the last attempt failed).
   */
  drain(): Promise<DrainReport>;
  /** Resolves when the background delivery has nothing left pending (delivered or given up). */
  flush(): Promise<void>;
  /** A message's delivery state. */
  status(id: string): Promise<OutboxRow | null>;
  /** This endpoint's given-up messages, kept in the outbox so they stay visible. */
  failed(): Promise<OutboxRow[]>;
};

/**
 * A webhook notifier: Standard Webhooks signatures (`webhook-id`, `webhook-timestamp`, `webhook-signature`, made by
 * the `standardwebhooks` library), retries with exponential backoff and full jitter on network errors, timeouts,
 * 5xx and 429 (a `Retry-After` is honoured up to `maxDelayMs`; any other non-2xx answer is final), the same `webhook-id` on every attempt of a message so a receiver
 * can drop replays, and an outbox that keeps given-up messages visible as `failed`.
 *
 * @example
 * import { createWebhookNotifier } from "@orpc-agent/notify";
 * const notifier = createWebhookNotifier({ url: "https://hooks.example.com/approvals", secret: process.env.WEBHOOK_SECRET! });
 * const { id } = await notifier.notify({ type: "approval.requested", approvalId: "apr_1" });
 * await notifier.flush();
 * console.log(await notifier.status(id)); // { status: "delivered", attempts: 1, … }
 */
export function createWebhookNotifier(options: WebhookNotifierOptions): WebhookNotifier {
  const url = checkUrl(options?.url);
  const webhook = signerOf(options.secret);
  const outbox = options.outbox ?? createInMemoryWebhookOutbox();
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const retry = retryPolicy(options.retry);
  const timeoutMs = options.timeoutMs ?? 15_000;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new TypeError(`createWebhookNotifier: timeoutMs must be a number > 0 (got ${String(timeoutMs)})`);
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? unrefSleep;
  const onError = options.onError ?? ((error: unknown) => console.warn("[@orpc-agent/notify] webhook delivery:", error));
  // The lease outlives one attempt, so a live drainer never loses its claim mid-request.
  const leaseMs = timeoutMs * 2 + 5_000;
  const batchSize = 10;
  let background: Promise<void> | undefined;
  // Set by every notify; the background run checks it before it ends, in the same tick it ends in, so a message
  // enqueued while a run is finishing is never left waiting for the next notify.
  let kicked = false;

  async function attempt(message: ClaimedMessage): Promise<Settlement> {
    const at = now();
    // Claimed past the last attempt: a drainer died during it and its outcome is lost; give up, as it would have.
    if (message.attempts > retry.attempts) return { kind: "failed", at, error: "gave up: the last attempt's outcome was lost" };
    const outcome = await sendWebhook(message, { url, webhook, fetch: fetchImpl, timeoutMs, now: at });
    const done = now();
    if (outcome.kind === "delivered") return { kind: "delivered", at: done, status: outcome.status };
    const status = outcome.status === undefined ? {} : { status: outcome.status };
    if (outcome.kind === "final" || message.attempts >= retry.attempts) {
      const why = outcome.kind === "final" ? outcome.error : `${outcome.error} (gave up after ${message.attempts} attempts)`;
      return { kind: "failed", at: done, error: why, ...status };
    }
    // A receiver's Retry-After is honoured up to the policy's cap: it knows when it will be back.
    const delay = Math.max(retry.delayAfter(message.attempts), Math.min(outcome.retryAfterMs ?? 0, retry.maxDelayMs));
    return { kind: "retry", at: done, nextAttemptAt: new Date(done.getTime() + delay), error: outcome.error, ...status };
  }

  async function drain(): Promise<DrainReport> {
    const report: DrainReport = { delivered: 0, retrying: 0, failed: 0 };
    // Due by the drain's start: a retry scheduled during this drain waits for the next one.
    const dueBy = now();
    for (;;) {
      const batch = await outbox.claim(url, { now: now(), dueBy, limit: batchSize, leaseMs });
      if (batch.length === 0) return report;
      await Promise.all(
        batch.map(async (message) => {
          const settlement = await attempt(message);
          if (!(await outbox.settle(message, settlement))) return;
          if (settlement.kind === "delivered") report.delivered += 1;
          else if (settlement.kind === "retry") report.retrying += 1;
          else report.failed += 1;
        }),
      );
    }
  }

  /** Drains, then waits for the next due message, until nothing of this endpoint is pending. */
  async function deliverUntilSettled(): Promise<void> {
    for (;;) {
      await drain();
      const due = await outbox.nextDueAt(url);
      if (due === null) return;
      await sleep(Math.max(0, due.getTime() - now().getTime()));
    }
  }

  function startBackground(): void {
    kicked = true;
    if (background !== undefined) return;
    background = (async () => {
      try {
        while (kicked) {
          kicked = false;
          await deliverUntilSettled();
        }
      } catch (error) {
        onError(error);
      } finally {
        background = undefined;
      }
    })();
  }

  return {
    async notify(event, notifyOptions) {
      if (typeof event !== "object" || event === null || typeof event.type !== "string" || event.type.length === 0) {
        throw new TypeError("notify: the event must be an object with a non-empty string `type`");
      }
      const id = notifyOptions?.id ?? `msg_${randomUUID().replaceAll("-", "")}`;
      const createdAt = now();
      const body = JSON.stringify({ type: event.type, timestamp: createdAt.toISOString(), data: event });
      const enqueued = await outbox.enqueue(url, { id, type: event.type, body, createdAt });
      if (options.deliverOnNotify !== false) startBackground();
      return { id, enqueued };
    },
    drain,
    async flush() {
      // A notify during the wait starts a new run only if the current one ended; wait for that one too.
      while (background !== undefined) await background;
    },
    status: (id) => outbox.get(url, id),
    failed: () => outbox.list({ endpoint: url, status: "failed" }),
  };
}

function checkUrl(url: unknown): string {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === "string" ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
    throw new TypeError(`createWebhookNotifier: url must be an http(s) URL (got ${JSON.stringify(url)})`);
  }
  return url as string;
}

function signerOf(secret: unknown): Webhook {
  try {
    if (typeof secret !== "string" || !secret.startsWith("whsec_")) throw new Error("not a whsec_ secret");
    return new Webhook(secret);
  } catch {
    throw new TypeError('createWebhookNotifier: secret must be a Standard Webhooks secret, "whsec_" followed by base64 (e.g. 32 random bytes)');
  }
}

function unrefSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
