import { assertChannelName, type PgListen, type PgListenEvents } from "./listen.js";

/** The part of a node-postgres `Client` the helper uses; a fresh one per connection, never a pooled one. */
export type PgListenClientLike = {
  connect(): Promise<unknown>;
  query(sql: string): Promise<unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: node-postgres types `on` as one generic overload per event.
  on(event: "notification" | "error" | "end", listener: (arg: any) => void): unknown;
  end(): Promise<unknown>;
};

export type PgListenFromClientOptions = {
  /**
   * Waits between reconnect attempts after the connection drops: doubling from `initialMs` up to `maxMs`.
   * @default { initialMs: 250, maxMs: 30_000 }
   */
  backoff?: { initialMs?: number; maxMs?: number };
  /**
   * Called when the LISTEN connection fails or drops; the helper keeps reconnecting.
   * @default one `console.error` line
   */
  onError?: (error: unknown) => void;
};

/** A {@link PgListen} with its connection: `close()` ends it and stops reconnecting; a later `listen` rejects. */
export type PgListener = PgListen & { close(): Promise<void> };

type Subscription = { channel: string; onPayload: (payload: string) => void; events: PgListenEvents | undefined; lost: boolean };

const defaultOnError = (error: unknown): void => {
  console.error(`[@orpc-agent/postgres] the LISTEN connection failed; reconnecting: ${error instanceof Error ? error.message : String(error)}`);
};

/**
 * A {@link PgListen} for node-postgres: one dedicated connection from `createClient`, opened at the first
 * subscription and ended when the last one stops, shared by every channel. When it drops (restart, failover,
 * `pg_terminate_backend`) each subscription hears `lost`; the helper reconnects with backoff, LISTENs again, then
 * each hears `restored`. `listen` resolves once its channel is listened to on a live connection.
 *
 * @example
 * import { pgListenFromClient } from "@orpc-agent/postgres";
 * import pg from "pg";
 * const listen = pgListenFromClient(() => new pg.Client({ connectionString: process.env.DATABASE_URL }));
 */
export function pgListenFromClient(createClient: () => PgListenClientLike, options: PgListenFromClientOptions = {}): PgListener {
  if (typeof createClient !== "function") throw new TypeError("pgListenFromClient: pass () => new pg.Client(config), a fresh client per call");
  const initialMs = options.backoff?.initialMs ?? 250;
  const maxMs = options.backoff?.maxMs ?? 30_000;
  if (!(Number.isFinite(initialMs) && initialMs >= 0 && Number.isFinite(maxMs) && maxMs >= initialMs)) {
    throw new TypeError("pgListenFromClient: backoff needs 0 <= initialMs <= maxMs, finite");
  }
  const onError = options.onError ?? defaultOnError;
  if (typeof onError !== "function") throw new TypeError("pgListenFromClient: onError must be a function");

  const subscriptions = new Set<Subscription>();
  let client: PgListenClientLike | undefined;
  let listening = new Set<string>();
  let retry: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let closed = false;
  let wake: (() => void)[] = [];
  // Every change of the connection runs in this order, so LISTEN, UNLISTEN and reconnects never interleave.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = (step: () => Promise<void>): Promise<void> => {
    const run = chain.then(step);
    chain = run.catch(() => undefined);
    return run;
  };

  const report = (error: unknown) => safely(() => onError(error));
  const channels = () => new Set([...subscriptions].map((s) => s.channel));

  const dropped = (which: PgListenClientLike, error?: unknown) => {
    if (which !== client) return;
    client = undefined;
    listening = new Set();
    void which.end().catch(() => undefined);
    if (error !== undefined) report(error);
    outage();
  };
  const outage = () => {
    if (subscriptions.size === 0 || closed) return;
    for (const s of subscriptions) {
      if (s.lost) continue;
      s.lost = true;
      safely(() => s.events?.lost?.());
    }
    if (retry !== undefined) return;
    const delay = Math.min(maxMs, initialMs * 2 ** attempt);
    attempt += 1;
    retry = setTimeout(() => {
      retry = undefined;
      void serial(reconcile);
    }, delay);
    retry.unref?.();
  };

  /** Brings the connection in line with the subscriptions; failures become an outage, reported, and retried. */
  const reconcile = async (): Promise<void> => {
    try {
      const wanted = channels();
      if (wanted.size === 0) {
        await release();
        return;
      }
      if (client === undefined) {
        const fresh = createClient();
        fresh.on("error", (error: unknown) => dropped(fresh, error));
        fresh.on("end", () => dropped(fresh, new Error("the LISTEN connection ended")));
        fresh.on("notification", (message: { channel?: string; payload?: string }) => {
          if (fresh !== client) return;
          for (const s of [...subscriptions]) if (s.channel === message.channel) safely(() => s.onPayload(message.payload ?? ""));
        });
        try {
          await fresh.connect();
        } catch (error) {
          void fresh.end().catch(() => undefined);
          throw error;
        }
        client = fresh;
      }
      const live = client;
      for (const channel of wanted) {
        if (listening.has(channel)) continue;
        await live.query(`listen ${channel}`);
        listening.add(channel);
      }
      for (const channel of [...listening]) {
        if (wanted.has(channel)) continue;
        await live.query(`unlisten ${channel}`);
        listening.delete(channel);
      }
    } catch (error) {
      const broken = client;
      if (broken !== undefined) dropped(broken, error);
      else {
        report(error);
        outage();
      }
      return;
    }
    attempt = 0;
    for (const s of subscriptions) {
      if (!s.lost) continue;
      s.lost = false;
      safely(() => s.events?.restored?.());
    }
    for (const resolve of wake.splice(0)) resolve();
  };

  const release = async (): Promise<void> => {
    if (retry !== undefined) clearTimeout(retry);
    retry = undefined;
    attempt = 0;
    const open = client;
    client = undefined;
    listening = new Set();
    if (open !== undefined) await open.end().catch(() => undefined);
  };

  const listen: PgListen = async (channel, onPayload, events) => {
    if (closed) throw new Error("pgListenFromClient: this listener is closed");
    assertChannelName(channel);
    if (typeof onPayload !== "function") throw new TypeError("listen: onPayload must be a function");
    const subscription: Subscription = { channel, onPayload, events, lost: false };
    subscriptions.add(subscription);
    // Joining during an outage: what is sent before the reconnect is missed, so this one hears lost/restored too.
    if (retry !== undefined) outage();
    await serial(reconcile);
    while (!closed && subscriptions.has(subscription) && !(client !== undefined && listening.has(channel))) {
      await new Promise<void>((resolve) => wake.push(resolve));
    }
    if (closed) throw new Error("pgListenFromClient: this listener was closed");
    let stopped = false;
    return () => {
      if (stopped) return Promise.resolve();
      stopped = true;
      subscriptions.delete(subscription);
      return serial(reconcile);
    };
  };

  return Object.assign(listen, {
    close: async () => {
      closed = true;
      subscriptions.clear();
      await serial(release);
      for (const resolve of wake.splice(0)) resolve();
    },
  });
}

/** A subscriber's callback that throws must not break the connection or the other subscribers. */
function safely(call: () => void): void {
  try {
    call();
  } catch {
    // Reported nowhere on purpose: the caller's own code, and the connection must keep serving the others.
  }
}
