// The README's example, verbatim except for one line: the import path (the package's tsconfig cannot resolve its
// own name, so the test imports the entry that "@orpc-agent/opentelemetry" points to).
import { os } from "@orpc/server";
import { z } from "zod";
import { expect, it } from "vitest";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createOpenTelemetryTracing } from "../src/index.js";

const ap = agentProcedure(os);
const governance = defineGovernance({
  registry: createCapabilityRegistry({
    orders: {
      get: ap
        .input(z.object({ orderId: z.string() }))
        .meta({ agent: { description: "Read an order.", expose: { aiSdk: true }, sideEffect: "read", risk: "low" } })
        .handler(({ input }) => ({ id: input.orderId, status: "shipped" })),
    },
  }),
});

// In production: your SDK's provider and exporter, registered globally, and no `tracer` option.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

it("every governed call becomes an agent.capability_call span with a child per attempt", async () => {
  const runtime = createAgentRuntime({
    governance,
    tracing: createOpenTelemetryTracing({ tracer: provider.getTracer("my-shop") }),
  });

  const result = await runtime.invoke("orders.get", { orderId: "o1" }, { actor: { id: "u_dana", kind: "user" }, context: {}, surface: "aiSdk" });
  expect(result.status).toBe("completed");

  const [attempt, call] = exporter.getFinishedSpans();
  expect(attempt?.name).toBe("agent.procedure_execution");
  expect(call?.name).toBe("agent.capability_call");
  expect(call?.attributes).toMatchObject({ "orpc_agent.capability_id": "orders.get", "orpc_agent.outcome": "completed", "orpc_agent.attempt": 1 });
  // No input, output or actor id: the id is kept only with actorIdAttribute: true.
  expect(call?.attributes["orpc_agent.actor_id"]).toBeUndefined();
});
