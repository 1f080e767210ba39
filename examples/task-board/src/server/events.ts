import type { ServerResponse } from "node:http";

/**
 * Server-sent events per signed-in person: the board changed, or an approval card has an outcome. The page
 * subscribes once; nothing polls.
 */
export function createEventHub() {
  const subscribers = new Map<string, Set<ServerResponse>>();

  function subscribe(actorId: string, res: ServerResponse): void {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
    res.write(": connected\n\n");
    const set = subscribers.get(actorId) ?? new Set();
    set.add(res);
    subscribers.set(actorId, set);
    res.on("close", () => set.delete(res));
  }

  function send(actorId: string | "everyone", event: object): void {
    const targets = actorId === "everyone" ? [...subscribers.values()].flatMap((set) => [...set]) : [...(subscribers.get(actorId) ?? [])];
    for (const res of targets) res.write(`data: ${JSON.stringify(event)}\n\n`);
  }

  function close(): void {
    for (const set of subscribers.values()) for (const res of set) res.end();
  }

  return { subscribe, send, close };
}
