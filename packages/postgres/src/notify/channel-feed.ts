import type { PgListen, PgListenEvents, PgUnlisten } from "./listen.js";

/**
 * Ids NOTIFYed on one channel, fanned out to subscribers: the LISTEN is held only while someone subscribes, and a
 * subscriber that throws is reported without keeping the others from hearing. Both feeds of this folder share it.
 */
export function createChannelFeed(
  listen: PgListen,
  channel: string,
  report: (error: unknown) => void,
  events: (deliver: (id: string) => void, subscribed: () => boolean) => PgListenEvents = () => ({}),
): (listener: (id: string) => void) => () => void {
  const listeners = new Set<(id: string) => void>();
  let active: Promise<PgUnlisten | undefined> | undefined;

  const deliver = (id: string) => {
    if (id === "") return;
    for (const listener of [...listeners]) {
      try {
        listener(id);
      } catch (error) {
        report(error);
      }
    }
  };
  // Called at once, so the LISTEN is on its way when the first subscriber returns.
  const start = (): Promise<PgUnlisten | undefined> => {
    const failed = (error: unknown) => {
      report(error);
      return undefined;
    };
    try {
      return Promise.resolve(listen(channel, deliver, events(deliver, () => listeners.size > 0))).catch(failed);
    } catch (error) {
      return Promise.resolve(failed(error));
    }
  };

  return (listener) => {
    if (typeof listener !== "function") throw new TypeError("the feed takes a function (id) => void");
    listeners.add(listener);
    if (active === undefined) active = start();
    return () => {
      if (!listeners.delete(listener) || listeners.size > 0 || active === undefined) return;
      // The last subscriber left: release the LISTEN (and, with pgListenFromClient, its connection when nothing else listens).
      const stopping = active;
      active = undefined;
      void stopping.then((unlisten) => unlisten?.()).catch(report);
    };
  };
}

/** A callback of the application that throws must not stop a feed. */
export function reporter(onError: (error: unknown) => void): (error: unknown) => void {
  return (error) => {
    try {
      onError(error);
    } catch {
      // Nowhere left to report it.
    }
  };
}
