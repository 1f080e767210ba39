import { timerDelay } from "../../internal/promise.js";
import type { ApprovalNotification, ApprovalNotificationFailure, ApprovalNotifier } from "./types.js";

/** The most notifications waiting for delivery; one more is dropped (and reported). */
export const DEFAULT_NOTIFY_QUEUE_LIMIT = 1_000;
/** The most one delivery may take before it counts as failed and the next one starts. */
export const DEFAULT_NOTIFY_TIMEOUT_MS = 10_000;

export type NotificationQueue = {
  /** Never throws, never waits: queues the notification, or drops it when the queue is full. */
  enqueue(notification: ApprovalNotification): void;
};

/**
 * Best-effort delivery off the call's path (docs/guides/approvals.md#telling-approvers): one notification
 * at a time, in order, each bounded by `timeoutMs`; at most `limit` waiting, so a slow or hung notifier costs bounded
 * memory. On overflow the newest is dropped: what is queued keeps its order. Every notification not delivered goes to
 * `onUndelivered` (the runtime audits it). `track` receives each run of the worker, so the runtime's drain waits for it.
 */
export function createNotificationQueue(options: {
  notify: ApprovalNotifier;
  limit: number;
  timeoutMs: number;
  onUndelivered: (notification: ApprovalNotification, reason: ApprovalNotificationFailure) => void;
  track: (work: Promise<void>) => void;
}): NotificationQueue {
  const { notify, limit, timeoutMs } = options;
  const waiting: ApprovalNotification[] = [];
  let head = 0;
  let running = false;

  const undelivered = (notification: ApprovalNotification, reason: ApprovalNotificationFailure): void => {
    try {
      options.onUndelivered(notification, reason);
    } catch {
      // Reporting is best effort too: nothing it throws reaches a call.
    }
  };

  async function deliver(notification: ApprovalNotification): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timerDelay(timeoutMs));
      // A hung notifier must not keep the process alive: drainAudit, when asked, is what waits.
      (timer as { unref?: () => void }).unref?.();
    });
    try {
      // Called in a promise job, so a synchronous throw is a rejection like any other.
      const delivered = Promise.resolve().then(() => notify(notification));
      const outcome = await Promise.race([delivered.then(() => "delivered" as const), timedOut]);
      if (outcome === "timeout") {
        // The hung delivery is abandoned; a late rejection of it must not surface as unhandled.
        delivered.catch(() => undefined);
        undelivered(notification, "timeout");
      }
    } catch {
      undelivered(notification, "failed");
    } finally {
      clearTimeout(timer);
    }
  }

  async function drainQueue(): Promise<void> {
    try {
      while (head < waiting.length) {
        const next = waiting[head]!;
        waiting[head++] = undefined as never;
        // Compact now and then, so a long-lived queue does not keep a growing array of holes.
        if (head > 64 && head * 2 > waiting.length) {
          waiting.splice(0, head);
          head = 0;
        }
        await deliver(next);
      }
    } finally {
      waiting.length = 0;
      head = 0;
      running = false;
    }
  }

  return {
    enqueue(notification) {
      if (waiting.length - head >= limit) {
        undelivered(notification, "dropped");
        return;
      }
      waiting.push(notification);
      if (running) return;
      running = true;
      // Started in a promise job: the notifier never runs inside the call that raised the notification.
      options.track(Promise.resolve().then(drainQueue));
    },
  };
}
