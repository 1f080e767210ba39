// Property-based checks of the two scope languages (docs/architecture/spec/core.md#core-3 "Scope", docs/architecture/spec/core.md#core-8 step 2, docs/architecture/spec/core.md#core-15-item-2): a describe scope is
// the UNION of its `ids` and `tags` and narrows listing only; a policy scope is an AND across fields (ANY within one)
// and decides where a policy runs at all — scoped-out policies are not called and leave no record.
import { os } from "@orpc/server";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  type AgentAuditEvent,
  type CapabilityDefs,
  type DescribeScope,
  type ExposureSurface,
  type PolicyScope,
  type RiskLevel,
  type SideEffect,
} from "../../src/index.js";
import { policyScopeMatches } from "../../src/policy/scope.js";

const TAGS = ["billing", "orders", "support"];
const SURFACES = ["direct", "mcp"] as const;
const SIDE_EFFECTS: SideEffect[] = ["none", "read", "write", "destructive", "external"];
const RISKS: RiskLevel[] = ["low", "medium", "high", "critical"];

type Cap = { id: string; tags: string[]; sideEffect: SideEffect; risk: RiskLevel; expose: ExposureSurface[] };

const catalog: fc.Arbitrary<Cap[]> = fc
  .array(
    fc.record({
      tags: fc.subarray(TAGS),
      sideEffect: fc.constantFrom(...SIDE_EFFECTS),
      risk: fc.constantFrom(...RISKS),
      expose: fc.subarray([...SURFACES]),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((caps) => caps.map((cap, i) => ({ ...cap, id: `g.c${i}` })));

const describeScope = (ids: string[]): fc.Arbitrary<DescribeScope | undefined> =>
  fc.option(fc.record({ ids: fc.subarray([...ids, "g.unknown"]), tags: fc.subarray([...TAGS, "untagged-nowhere"]) }, { requiredKeys: [] }), { nil: undefined });

const policyScope = (ids: string[]): fc.Arbitrary<PolicyScope | undefined> =>
  fc.option(
    fc.record(
      {
        capabilities: fc.record(
          // Policy scopes may name only registered ids (defineGovernance refuses others, docs/architecture/spec/core.md#core-4).
          { ids: fc.subarray(ids), tags: fc.subarray(TAGS), sideEffects: fc.subarray(SIDE_EFFECTS), risks: fc.subarray(RISKS) },
          { requiredKeys: [] },
        ),
        surfaces: fc.subarray<ExposureSurface>(["direct", "aiSdk", "mcp", "workflow", "test"]),
      },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  );

/** docs/architecture/spec/core.md#core-8 step 2: absent or key-less → everything; otherwise ids ∪ tags (ANY); untagged matches no tag; [] matches nothing. */
function inDescribeScope(cap: Cap, scope: DescribeScope | undefined): boolean {
  if (scope === undefined || (scope.ids === undefined && scope.tags === undefined)) return true;
  return (scope.ids?.includes(cap.id) ?? false) || (scope.tags?.some((tag) => cap.tags.includes(tag)) ?? false);
}

/** docs/architecture/spec/core.md#core-3: AND across fields, ANY within a field; missing = all, present [] = none. */
function inPolicyScope(cap: Cap, surface: ExposureSurface, scope: PolicyScope | undefined): boolean {
  if (scope === undefined) return true;
  if (scope.surfaces !== undefined && !scope.surfaces.includes(surface)) return false;
  const c = scope.capabilities;
  if (c === undefined) return true;
  if (c.ids !== undefined && !c.ids.includes(cap.id)) return false;
  if (c.tags !== undefined && !c.tags.some((tag) => cap.tags.includes(tag))) return false;
  if (c.sideEffects !== undefined && !c.sideEffects.includes(cap.sideEffect)) return false;
  if (c.risks !== undefined && !c.risks.includes(cap.risk)) return false;
  return true;
}

function registryOf(caps: Cap[], ran: string[]) {
  const base = agentProcedure(os);
  const group: Record<string, unknown> = {};
  for (const cap of caps) {
    const key = cap.id.slice(2);
    group[key] = base
      .meta(agentMeta({
        description: `Capability ${cap.id}.`,
        expose: Object.fromEntries(cap.expose.map((s) => [s, true])),
        sideEffect: cap.sideEffect,
        risk: cap.risk,
        ...(cap.tags.length > 0 ? { tags: cap.tags } : {}),
      }))
      .handler(() => {
        ran.push(cap.id);
        return { ok: cap.id };
      });
  }
  return createCapabilityRegistry({ g: group } as CapabilityDefs);
}

const actor = { id: "u_dana", kind: "user" as const };
const coordinator = createInMemoryApprovalCoordinator();
const scenario = catalog.chain((caps) => {
  const ids = caps.map((c) => c.id);
  return fc.tuple(fc.constant(caps), describeScope(ids), policyScope(ids), fc.constantFrom(...SURFACES));
});

describe("scope semantics properties (core.md §3, §8)", () => {
  it("policyScopeMatches is AND across fields and ANY within one, for every capability and surface", () => {
    fc.assert(
      fc.property(scenario, ([caps, , scope, surface]) => {
        for (const cap of caps) {
          const meta = { description: "x", expose: {}, sideEffect: cap.sideEffect, risk: cap.risk, ...(cap.tags.length > 0 ? { tags: cap.tags } : {}) };
          expect(policyScopeMatches(scope, { id: cap.id, meta }, surface)).toBe(inPolicyScope(cap, surface, scope));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("describe lists exposed ∧ (ids ∪ tags) minus what a scoped hide matches; scoped-out policies are never called", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ([caps, scope, hideScope, surface]) => {
        const called: string[] = [];
        const hider = definePolicy(
          "hider",
          (req) => {
            called.push(req.capability.id);
            return { type: "hide" };
          },
          { phases: ["discovery"], ...(hideScope !== undefined ? { scope: hideScope } : {}) },
        );
        // audit: () => {} and a named coordinator: deliberate choices that keep startup warnings W1–W3 quiet.
        const runtime = createAgentRuntime({ governance: defineGovernance({ registry: registryOf(caps, []), policies: [hider] }), audit: () => {}, approvals: { coordinator } });
        const listed = await runtime.describe(surface, { actor, context: {}, ...(scope !== undefined ? { scope } : {}) });

        const candidates = caps.filter((c) => c.expose.includes(surface) && inDescribeScope(c, scope));
        expect(listed.map((d) => d.id)).toEqual(candidates.filter((c) => !inPolicyScope(c, surface, hideScope)).map((c) => c.id));
        expect(called).toEqual(candidates.filter((c) => inPolicyScope(c, surface, hideScope)).map((c) => c.id));
      }),
      { numRuns: 200 },
    );
  });

  it("SI-2: invoke ignores describe scope; a scoped deny refuses exactly its matches and records nothing elsewhere", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ([caps, , denyScope, surface]) => {
        const ran: string[] = [];
        const events: AgentAuditEvent[] = [];
        const denier = definePolicy("denier", () => ({ type: "deny" }), { phases: ["invocation"], ...(denyScope !== undefined ? { scope: denyScope } : {}) });
        const runtime = createAgentRuntime({
          governance: defineGovernance({ registry: registryOf(caps, ran), policies: [denier] }),
          audit: (e) => void events.push(e),
          approvals: { coordinator },
        });
        for (const cap of caps) {
          events.length = 0;
          const result = await runtime.invoke(cap.id, undefined, { actor, context: {}, surface });
          const terminal = events.find((e) => e.type !== "capability.requested" && e.type !== "capability.started")!;
          if (!cap.expose.includes(surface)) {
            expect(result.status === "failed" && result.error.code).toBe("CAPABILITY_NOT_FOUND");
            expect(terminal.data).toEqual({ reason: "not-exposed", publicCode: "CAPABILITY_NOT_FOUND" });
          } else if (inPolicyScope(cap, surface, denyScope)) {
            expect(result.status === "failed" && result.error.code).toBe("POLICY_DENIED");
            expect(terminal.data).toMatchObject({ reason: "policy-denied", policyDecisions: [{ policy: "denier", type: "deny" }] });
          } else {
            expect(result.status).toBe("completed");
            // Scoped out: not called, no record.
            expect(terminal).toMatchObject({ type: "capability.completed" });
            expect(JSON.stringify(events)).not.toContain("denier");
          }
        }
        expect(ran).toEqual(caps.filter((c) => c.expose.includes(surface) && !inPolicyScope(c, surface, denyScope)).map((c) => c.id));
      }),
      { numRuns: 120 },
    );
  });
});
