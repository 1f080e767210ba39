// A chat application for the AI SDK UI tests: a read, a manager-approved refund, a requester-confirmed send (a
// large send also needs a manager), a capability a policy denies, and one whose handler fails with internal text.
import { os } from "@orpc/server";
import { z } from "zod";
import {
  agentMeta,
  agentProcedure,
  allow,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  deny,
  requireApproval,
  type AgentAuditEvent,
  type ApprovalCoordinator,
  type GrantCaps,
} from "@orpc-agent/core";
import type { AppContext } from "./app.js";

export const INTERNAL_TEXT = "connect ECONNREFUSED 10.0.3.7:5432 (users_table)";

export function buildChatApp(
  options: { requesterConfirmable?: string[]; rejectSelfApproval?: boolean; coordinator?: ApprovalCoordinator; sendGrants?: GrantCaps } = { requesterConfirmable: ["confirmation"] },
) {
  const ap = agentProcedure(os.$context<AppContext>() as unknown as Parameters<typeof agentProcedure>[0]);
  const handlerRuns: string[] = [];
  const sentTexts: string[] = [];
  const registry = createCapabilityRegistry({
    orders: {
      get: ap
        .input(z.object({ orderId: z.string() }))
        .meta(agentMeta({ description: "Read an order.", expose: { aiSdk: true }, sideEffect: "read", risk: "low" }))
        .handler(({ input }) => {
          handlerRuns.push("orders.get");
          return { orderId: input.orderId, total: 649 };
        }),
      refund: ap
        .input(z.object({ orderId: z.string(), amount: z.number().positive() }))
        .meta(agentMeta({ description: "Refund an order.", expose: { aiSdk: true }, sideEffect: "write", risk: "high", approval: { required: true, type: "manager" } }))
        .handler(({ input }) => {
          handlerRuns.push("orders.refund");
          return { refunded: input.amount };
        }),
      cancel: ap
        .input(z.object({ orderId: z.string() }))
        .meta(agentMeta({ description: "Cancel an order.", expose: { aiSdk: true }, sideEffect: "write", risk: "medium" }))
        .handler(() => {
          handlerRuns.push("orders.cancel");
          return { cancelled: true };
        }),
    },
    notes: {
      send: ap
        // `trim` transforms: the validated input can differ from what the model submitted (ADR-020).
        .input(z.object({ to: z.string(), text: z.string().trim(), amount: z.number().optional() }))
        .meta(agentMeta({ description: "Send a note to a customer.", expose: { aiSdk: true }, sideEffect: "external", risk: "medium", approval: { required: true, type: "confirmation", ...(options.sendGrants ? { grants: options.sendGrants } : {}) } }))
        .handler(({ input }) => {
          handlerRuns.push(`notes.send:${input.to}`);
          sentTexts.push(input.text);
          return { sent: input.to };
        }),
    },
    support: {
      lookup: ap
        .meta(agentMeta({ description: "Look up the customer record.", expose: { aiSdk: true }, sideEffect: "read", risk: "low" }))
        .handler(() => {
          handlerRuns.push("support.lookup");
          throw new Error(INTERNAL_TEXT);
        }),
    },
  });
  const policies = [
    definePolicy("no-cancellations", () => deny(), {
      phases: ["invocation"],
      scope: { capabilities: { ids: ["orders.cancel"] } },
    }),
    definePolicy("large-sends", (req) => ((req.input as { amount?: number }).amount! > 100 ? requireApproval({ reason: "Large credit.", approvalType: "manager" }) : allow()), {
      phases: ["invocation"],
      scope: { capabilities: { ids: ["notes.send"] } },
    }),
  ];
  const events: AgentAuditEvent[] = [];
  const runtime = createAgentRuntime<AppContext>({
    governance: defineGovernance({ registry, policies }),
    approvals: { coordinator: options.coordinator ?? createInMemoryApprovalCoordinator(), ...(options.requesterConfirmable ? { requesterConfirmable: options.requesterConfirmable } : {}),
      ...(options.rejectSelfApproval !== undefined ? { rejectSelfApproval: options.rejectSelfApproval } : {}),
    },
    audit: (event) => void events.push(event),
  });
  return { runtime, events, handlerRuns, sentTexts };
}
