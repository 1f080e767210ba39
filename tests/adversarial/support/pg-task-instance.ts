// One instance's MCP `tasks` option on a shared PostgreSQL task store, with task cancellations over a LISTEN
// connection of its own: the instance the SI-3 / SI-12 cross-instance task attacks start twice on one schema.
import type { MCPTaskRecord } from "@orpc-agent/mcp";
import { createPgMCPTaskStore, createPgTaskCancellations, pgListenFromClient, type PgListen, type PgQuery } from "@orpc-agent/postgres";
import pg from "pg";
import { closeAfterTest } from "../../../packages/mcp/test/support/cleanup.js";

/** `heard(id)` resolves once this instance has handled a NOTIFY carrying `id`; `listening()` once its LISTENs are in effect. */
export function pgTasksInstance(query: PgQuery, channel: string) {
  const connection = pgListenFromClient(() => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL }), { onError: () => undefined });
  closeAfterTest(() => connection.close());
  const listening: Promise<unknown>[] = [];
  const heard: string[] = [];
  const waiting: { id: string; resolve: () => void }[] = [];
  // Taps what the instance hears, after the instance itself has handled it.
  const listen: PgListen = (name, onPayload, events) => {
    const started = connection(
      name,
      (payload) => {
        onPayload(payload);
        heard.push(payload);
        for (const w of waiting.filter((w) => w.id === payload)) w.resolve();
      },
      events,
    );
    listening.push(started);
    return started;
  };
  const cancellations = createPgTaskCancellations({ listen, query, channel });
  return {
    option: { store: createPgMCPTaskStore<MCPTaskRecord>({ query }), pollIntervalMs: 5, cancellations },
    listening: () => Promise.all(listening),
    heard: (id: string) => (heard.includes(id) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ id, resolve }))),
  };
}
