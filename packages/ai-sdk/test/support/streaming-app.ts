// An app with streaming capabilities (oRPC event-iterator outputs) and progress, for the adapter's streaming tests:
// an export that streams pages and reports progress (its events redacted), a write-like stream that fails after its
// first event, a gated stream, and a plain report that reports progress.
import { eventIterator, os } from "@orpc/server";
import { z } from "zod";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type AgentAuditEvent,
  type AgentRuntime,
} from "@orpc-agent/core";
import type { AppContext } from "./app.js";

export const PAGES = [
  { page: 1, orders: ["o_1", "o_2"], internalNote: "fraud score 0.91" },
  { page: 2, orders: ["o_3", "o_4"], internalNote: "fraud score 0.12" },
  { page: 3, orders: ["o_5"], internalNote: "fraud score 0.40" },
];

/** What the export handler did: how many pages it produced, and whether its `finally` ran (the iterator was closed). */
export type ExportTrace = { produced: number; closed: boolean; aborted: boolean };

export function buildStreamingApp(options: { progressIntervalMs?: number } = {}) {
  const ap = agentProcedure(os.$context<AppContext>() as unknown as Parameters<typeof agentProcedure>[0]);
  const traces: ExportTrace[] = [];
  const page = z.object({ page: z.number(), orders: z.array(z.string()), internalNote: z.string().optional() });
  const registry = createCapabilityRegistry({
    orders: {
      export: ap
        .input(z.object({ customerId: z.string() }))
        .output(eventIterator(page))
        .meta(
          agentMeta({
            description: "Export a customer's orders, page by page.",
            expose: { aiSdk: true, direct: true },
            sideEffect: "read",
            risk: "low",
            // Applied to every event: the model and the UI never see the internal note.
            redact: {
              output: (event) => {
                const { internalNote: _, ...rest } = event as { internalNote?: string };
                return rest;
              },
            },
          }),
        )
        .handler(async function* ({ context, signal }) {
          const trace: ExportTrace = { produced: 0, closed: false, aborted: false };
          traces.push(trace);
          try {
            for (const p of PAGES) {
              context.agent?.reportProgress({ progress: p.page, total: PAGES.length, message: `page ${p.page} of ${PAGES.length}` });
              trace.produced++;
              yield p;
            }
          } finally {
            trace.closed = true;
            trace.aborted = signal?.aborted === true;
          }
        }),
    },
    ledger: {
      sync: ap
        .output(eventIterator(z.object({ synced: z.number() })))
        .meta(agentMeta({ description: "Sync the ledger, streaming each batch.", expose: { aiSdk: true }, sideEffect: "write", risk: "medium" }))
        .handler(async function* () {
          yield { synced: 1 };
          throw new Error("ledger connection reset (10.0.3.7)");
        }),
    },
    payouts: {
      stream: ap
        .output(eventIterator(z.object({ paid: z.number() })))
        .meta(agentMeta({ description: "Pay out, streaming each payment.", expose: { aiSdk: true }, sideEffect: "write", risk: "high", approval: { required: true, type: "manager" } }))
        .handler(async function* () {
          yield { paid: 1 };
        }),
    },
    reports: {
      build: ap
        .meta(agentMeta({ description: "Build the monthly report.", expose: { aiSdk: true }, sideEffect: "read", risk: "low" }))
        .handler(({ context }) => {
          for (let step = 1; step <= 5; step++) context.agent?.reportProgress({ progress: step, total: 5 });
          return { report: "ready" };
        }),
    },
  });
  const events: AgentAuditEvent[] = [];
  const runtime: AgentRuntime<AppContext> = createAgentRuntime<AppContext>({
    governance: defineGovernance({ registry }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: (event) => void events.push(event),
    ...(options.progressIntervalMs !== undefined && { defaults: { progressIntervalMs: options.progressIntervalMs } }),
  });
  return { runtime, events, traces };
}

/** A few turns of the event loop: long enough for a runtime that would pull ahead to do so; not a timing assertion. */
export async function settleLoop(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
