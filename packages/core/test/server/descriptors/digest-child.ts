// Run in a separate process by digest.test.ts (G1): prints the digests a fresh process computes.
import { os } from "@orpc/server";
import { z } from "zod";
import { agentMeta, agentProcedure, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "../../../src/index.js";
import { createInMemoryInvocationJournal, createInvocationService } from "../../../src/server/index.js";

const registry = createCapabilityRegistry({
  orders: {
    refund: agentProcedure(os)
      .input(z.object({ orderId: z.string() }))
      .meta(agentMeta({ description: "Refund an order.", expose: { aiSdk: true, mcp: true }, sideEffect: "write", risk: "high", tags: ["b", "a"] }))
      .handler(() => 1),
  },
});
const service = createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "shop", revision: "r1" });
const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => {} });
const listing = await service.describe(runtime, { actor: { id: process.argv[2] ?? "u_dana", kind: "user" }, context: {}, surface: "aiSdk" });
process.stdout.write(JSON.stringify(listing.descriptors.map((d) => d.digest)));
