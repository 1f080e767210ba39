/**
 * The LISTEN seam beside `PgQuery` (docs/reference/postgres.md#decisions-across-instances): subscribe `onPayload` to one
 * channel on a connection that stays open, and get back the function that stops. `PgQuery` cannot carry it, because
 * LISTEN belongs to one session and a pool hands out a different one each call. PGlite's `db.listen` already has this
 * shape; node-postgres users take {@link pgListenFromClient}.
 *
 * `events` is optional for implementers: `lost` when the connection drops while subscribed, `restored` once the
 * channel is listened to again on a new connection. Notifications sent between the two are lost, so a subscriber
 * re-reads what it waits for on `restored`.
 *
 * @example
 * import { PGlite } from "@electric-sql/pglite";
 * import type { PgListen } from "@orpc-agent/postgres";
 * declare const db: PGlite;
 * const listen: PgListen = (channel, onPayload) => db.listen(channel, onPayload);
 */
export type PgListen = (channel: string, onPayload: (payload: string) => void, events?: PgListenEvents) => Promise<PgUnlisten>;

/** Stops one subscription; the connection is released once nothing listens on it. */
export type PgUnlisten = () => Promise<void>;

/** Connection events a {@link PgListen} may report; PGlite's in-process connection never drops, so it reports none. */
export type PgListenEvents = {
  /** The connection dropped: notifications from now until `restored` are not delivered. */
  lost?: () => void;
  /** Listening again on a new connection. */
  restored?: () => void;
};

// LISTEN takes an identifier, pg_notify a text: lowercase without quotes is the one spelling on which both agree.
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertChannelName(channel: unknown, what = "channel"): asserts channel is string {
  if (typeof channel !== "string" || !CHANNEL_NAME.test(channel)) {
    throw new TypeError(`Invalid ${what} ${JSON.stringify(channel)}: use lowercase letters, digits and "_", at most 63 characters`);
  }
}
