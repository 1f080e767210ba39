/** Where an outbox message is: waiting for a (next) attempt, delivered, or given up on. */
export type OutboxStatus = "pending" | "delivered" | "failed";

/** A message as the notifier enqueues it: the exact JSON body every attempt signs and sends. */
export type OutboxMessage = {
  /** The `webhook-id`: unique per endpoint; enqueueing an id again is a no-op. */
  readonly id: string;
  /** The event type (`approval.requested`, …), for listing; the body carries it too. */
  readonly type: string;
  readonly body: string;
  readonly createdAt: Date;
};

/** A message as the outbox keeps it, with its delivery state. */
export type OutboxRow = OutboxMessage & {
  /** The receiver URL: one outbox may serve several notifiers. */
  readonly endpoint: string;
  readonly status: OutboxStatus;
  /** Attempts started so far. */
  readonly attempts: number;
  readonly nextAttemptAt: Date;
  readonly deliveredAt?: Date;
  /** The last failed attempt's HTTP status, when it had one. */
  readonly lastStatus?: number;
  readonly lastError?: string;
};

/** A message one drainer holds until `leaseMs` has passed: its attempt counter already counts this attempt. */
export type ClaimedMessage = OutboxMessage & {
  readonly endpoint: string;
  readonly attempts: number;
  /** The claim's token: settling with a stale one (the lease ran out and another drainer claimed) changes nothing. */
  readonly claim: string;
};

/** How a claimed attempt ended. */
export type Settlement =
  | { readonly kind: "delivered"; readonly at: Date; readonly status: number }
  | { readonly kind: "retry"; readonly at: Date; readonly nextAttemptAt: Date; readonly status?: number; readonly error: string }
  | { readonly kind: "failed"; readonly at: Date; readonly status?: number; readonly error: string };

/**
 * Where webhook messages wait for delivery. The notifier enqueues; any number of drainers, in one process or many,
 * claim due messages (a claim is exclusive until its lease runs out), send them and settle each claim. The in-memory
 * outbox is the default; `createPgWebhookOutbox` keeps messages across restarts and instances.
 */
export interface WebhookOutbox {
  /** Adds a pending message, due at once. False when `endpoint` already has a message with this id. */
  enqueue(endpoint: string, message: OutboxMessage): Promise<boolean>;
  /**
   * Takes up to `limit` pending messages of `endpoint` due at `dueBy` (default `now`) and not held by another claim at
   * `now`, holds them until `now + leaseMs` and counts one more attempt on each. No message is held by two claims at
   * once.
   */
  claim(endpoint: string, options: { now: Date; limit: number; leaseMs: number; dueBy?: Date }): Promise<ClaimedMessage[]>;
  /** Records how a claimed attempt ended. False (and no change) when the claim is no longer the message's. */
  settle(message: ClaimedMessage, settlement: Settlement): Promise<boolean>;
  /** The earliest instant a pending message of `endpoint` is due (its lease counted), or null when none is pending. */
  nextDueAt(endpoint: string): Promise<Date | null>;
  get(endpoint: string, id: string): Promise<OutboxRow | null>;
  /** Messages, oldest first; `failed` ones stay until the app deletes them. */
  list(filter?: { endpoint?: string; status?: OutboxStatus; limit?: number }): Promise<OutboxRow[]>;
}
