// Runtime policies scoped by ids, tags, side effects and surfaces, one scoped to nothing, one unscoped.
import { os } from "@orpc/server";
import { z } from "zod";
import { agentProcedure, allow, createCapabilityRegistry, defineGovernance, definePolicy } from "@orpc-agent/core";

const ap = agentProcedure(os);

const registry = createCapabilityRegistry({
  accounts: {
    close: ap
      .input(z.object({ accountId: z.string() }))
      .meta({
        agent: {
          description: "Close an account.",
          expose: { aiSdk: true, direct: true },
          sideEffect: "destructive",
          risk: "critical",
          tags: ["accounts"],
          approval: { required: true },
        },
      })
      .handler(() => ({ closed: true })),
    lookup: ap
      .meta({ agent: { description: "Look up an account.", expose: { mcp: true }, sideEffect: "read", risk: "low", tags: ["accounts"] } })
      .handler(() => ({})),
  },
  payments: {
    send: ap
      .meta({
        agent: {
          description: "Send a payment.",
          expose: { direct: true },
          sideEffect: "external",
          risk: "high",
          tags: ["finance"],
          idempotent: true,
          retry: { maxAttempts: 2 },
        },
      })
      .handler(() => ({ sent: true })),
  },
});

const pass = () => allow();

export const governance = defineGovernance({
  registry,
  policies: [
    definePolicy("tenant-guard", pass, { phases: ["discovery", "invocation"] }),
    definePolicy("close-limit", pass, { scope: { capabilities: { ids: ["accounts.close"] } } }),
    definePolicy("finance-hours", pass, { phases: ["execution"], scope: { capabilities: { tags: ["finance"] } } }),
    definePolicy("gate-model-writes", pass, {
      scope: { capabilities: { sideEffects: ["write", "destructive", "external"] }, surfaces: ["aiSdk", "mcp"] },
    }),
    definePolicy("paused", pass, { scope: { capabilities: { ids: [] } } }),
  ],
});
