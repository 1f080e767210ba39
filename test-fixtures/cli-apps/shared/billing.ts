// The registry and policies shared by runtime-gated.ts and runtime-ungated.ts.
import { os } from "@orpc/server";
import { z } from "zod";
import { agentProcedure, allow, createCapabilityRegistry, definePolicy } from "@orpc-agent/core";

const ap = agentProcedure(os);

export const registry = createCapabilityRegistry({
  invoices: {
    list: ap
      .meta({ agent: { description: "List invoices.", expose: { aiSdk: true }, sideEffect: "read", risk: "low", tags: ["billing"] } })
      .handler(() => []),
    void: ap
      .input(z.object({ invoiceId: z.string() }))
      .meta({
        agent: { description: "Void an invoice.", expose: { aiSdk: true, direct: true }, sideEffect: "destructive", risk: "critical", tags: ["billing"] },
      })
      .handler(() => ({ voided: true })),
  },
});

export const tenantGuard = definePolicy("tenant-guard", () => allow(), { phases: ["discovery", "invocation"] });
export const spendLimit = definePolicy("spend-limit", () => allow(), {
  scope: { capabilities: { sideEffects: ["write", "destructive"] } },
});
