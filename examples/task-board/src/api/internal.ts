import { agentMeta } from "@orpc-agent/core";
import { base } from "./base.js";

/** Maintenance for administrators; the governance hides it from everyone else (tagged `internal`). */
export const reindexBoards = base
  .meta(agentMeta({ description: "Rebuild the search index of every board.", expose: { aiSdk: true, direct: true }, sideEffect: "write", risk: "low", idempotent: true, tags: ["internal"] }))
  .handler(({ context }) => {
    context.store.effects.reindexed += 1;
    return { reindexed: context.store.boards.size };
  });
