import { randomUUID } from "node:crypto";
import type { ClaimedMessage, OutboxRow, WebhookOutbox } from "./types.js";

type Entry = { -readonly [K in keyof OutboxRow]: OutboxRow[K] } & { lockedUntil?: number; claim?: string };

/**
 * The default outbox: messages in this process's memory, lost on restart. Claims are synchronous, so concurrent
 * drains in the process never hold one message twice. For delivery that survives a restart or spans instances, use
 * `createPgWebhookOutbox`.
 *
 * @example
 * import { createInMemoryWebhookOutbox, createWebhookNotifier } from "@orpc-agent/notify";
 * const outbox = createInMemoryWebhookOutbox();
 * const notifier = createWebhookNotifier({ url: "https://hooks.example.com/approvals", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", outbox });
 * console.log(await outbox.list({ status: "failed" }));
 */
export function createInMemoryWebhookOutbox(): WebhookOutbox {
  const entries = new Map<string, Entry>();
  const key = (endpoint: string, id: string) => `${endpoint}\u0000${id}`;

  return {
    async enqueue(endpoint, message) {
      const k = key(endpoint, message.id);
      if (entries.has(k)) return false;
      entries.set(k, { ...message, endpoint, status: "pending", attempts: 0, nextAttemptAt: message.createdAt });
      return true;
    },

    async claim(endpoint, { now, limit, leaseMs, dueBy = now }) {
      const at = now.getTime();
      const due = [...entries.values()]
        .filter((e) => e.endpoint === endpoint && e.status === "pending" && e.nextAttemptAt.getTime() <= dueBy.getTime() && (e.lockedUntil ?? 0) <= at)
        .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime())
        .slice(0, limit);
      return due.map((e): ClaimedMessage => {
        e.attempts += 1;
        e.lockedUntil = at + leaseMs;
        e.claim = randomUUID();
        return { id: e.id, type: e.type, body: e.body, createdAt: e.createdAt, endpoint, attempts: e.attempts, claim: e.claim };
      });
    },

    async settle(message, settlement) {
      const e = entries.get(key(message.endpoint, message.id));
      if (e === undefined || e.status !== "pending" || e.claim !== message.claim) return false;
      e.claim = undefined;
      e.lockedUntil = undefined;
      if (settlement.kind === "delivered") {
        e.status = "delivered";
        e.deliveredAt = settlement.at;
        e.lastError = undefined;
        e.lastStatus = undefined;
        return true;
      }
      e.lastError = settlement.error;
      e.lastStatus = settlement.status;
      if (settlement.kind === "retry") e.nextAttemptAt = settlement.nextAttemptAt;
      else e.status = "failed";
      return true;
    },

    async nextDueAt(endpoint) {
      let next: number | null = null;
      for (const e of entries.values()) {
        if (e.endpoint !== endpoint || e.status !== "pending") continue;
        const due = Math.max(e.nextAttemptAt.getTime(), e.lockedUntil ?? 0);
        if (next === null || due < next) next = due;
      }
      return next === null ? null : new Date(next);
    },

    async get(endpoint, id) {
      const e = entries.get(key(endpoint, id));
      return e === undefined ? null : rowOf(e);
    },

    async list(filter = {}) {
      return [...entries.values()]
        .filter((e) => (filter.endpoint === undefined || e.endpoint === filter.endpoint) && (filter.status === undefined || e.status === filter.status))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .slice(0, filter.limit ?? Number.POSITIVE_INFINITY)
        .map(rowOf);
    },
  };
}

/** A detached copy without the claim's internals. */
function rowOf(e: Entry): OutboxRow {
  return {
    id: e.id,
    endpoint: e.endpoint,
    type: e.type,
    body: e.body,
    createdAt: e.createdAt,
    status: e.status,
    attempts: e.attempts,
    nextAttemptAt: e.nextAttemptAt,
    ...(e.deliveredAt === undefined ? {} : { deliveredAt: e.deliveredAt }),
    ...(e.lastStatus === undefined ? {} : { lastStatus: e.lastStatus }),
    ...(e.lastError === undefined ? {} : { lastError: e.lastError }),
  };
}
