import { os } from "@orpc/server";
import { z } from "zod";
import {
  agentProcedure,
  createCapabilityRegistry,
  defineGovernance,
  definePolicy,
  allow,
  type CapabilityDefs,
} from "@orpc-agent/core";

const base = agentProcedure(os);

export const trivialBuilder = base
  .input(z.object({ id: z.string() }))
  .meta({ agent: { description: "Read a thing.", expose: { direct: true, aiSdk: true }, sideEffect: "read", risk: "low" } });
export const trivial = trivialBuilder.handler(({ input }) => ({ id: input.id, ok: true }));

/** A plain oRPC procedure identical to `trivial`, without agent metadata: the baseline. */
export const rawBuilder = os.input(z.object({ id: z.string() }));
export const raw = rawBuilder.handler(({ input }) => ({ id: input.id, ok: true }));

/** A realistic small object schema, new objects each call so memoization cannot help either side. */
export function makeSchema(i: number) {
  return z.object({
    id: z.string().describe(`Identifier ${i}`),
    amount: z.number().min(0).optional(),
    note: z.string().max(200).default(""),
    tags: z.array(z.string()).optional(),
  });
}

export function makeDefs(n: number, schemas = Array.from({ length: n }, (_, i) => makeSchema(i))): CapabilityDefs {
  const defs: Record<string, CapabilityDefs> = {};
  for (let i = 0; i < n; i++) {
    const group = `g${i % 10}`;
    (defs[group] ??= {})[`c${i}`] = base
      .input(schemas[i]!)
      .meta({
        agent: {
          description: `Capability ${i}.`,
          expose: { aiSdk: true, mcp: true, direct: true },
          sideEffect: "read",
          risk: "low",
          tags: i % 3 === 0 ? ["scoped"] : ["other"],
        },
      })
      .handler(() => ({ ok: true })) as never;
  }
  return defs;
}

export function governanceWithDiscoveryPolicy(n: number) {
  const registry = createCapabilityRegistry(makeDefs(n));
  return defineGovernance({ registry, policies: [definePolicy("visible", () => allow(), { phases: ["discovery"] })] });
}
