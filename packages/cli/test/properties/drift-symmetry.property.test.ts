// Property-based checks of drift classification (docs/architecture/spec/cli.md#cli-7): swapping baseline and current swaps widening and
// narrowing and keeps neutral, for every field whose rule is stated in both directions. The rows the spec makes
// one-directional on purpose (sideEffect, "now observed" transitions, a capability added unexposed) are checked
// separately, so the symmetry property's exclusions stay deliberate.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffSnapshots } from "../../src/drift/diff-snapshots.js";
import type { Change } from "../../src/drift/types.js";
import type { CapabilityEntry, CapabilitySnapshot, RuntimePolicyEntry } from "../../src/snapshot/types.js";
import type { ExposureSurface, PolicyPhase, RiskLevel, SideEffect } from "@orpc-agent/core";

const IDS = ["c0", "c1", "c2", "c3", "c4"];
const SURFACES: ExposureSurface[] = ["aiSdk", "direct", "mcp", "test", "workflow"];
const RISKS: RiskLevel[] = ["low", "medium", "high", "critical"];
const SIDE_EFFECTS: SideEffect[] = ["none", "read", "write", "destructive", "external"];
const PHASES: PolicyPhase[] = ["discovery", "execution", "invocation"];
const POLICY_NAMES = ["p", "q", "r"];

/** What stays the same on both sides of a pair: the fields whose rules are one-directional. */
type Fixed = { sideEffect: SideEffect; retry?: CapabilityEntry["retry"] };

const fixed: fc.Arbitrary<Fixed> = fc.record(
  {
    sideEffect: fc.constantFrom(...SIDE_EFFECTS),
    retry: fc.record({ maxAttempts: fc.integer({ min: 0, max: 3 }), backoffMs: fc.option(fc.constantFrom(10, 50), { nil: undefined }), retryOn: fc.boolean() }, { requiredKeys: ["maxAttempts", "retryOn"] }),
  },
  { requiredKeys: ["sideEffect"] },
);

/** The symmetric part of one capability entry. */
const variable = fc.record({
  description: fc.option(fc.constantFrom("Reads.", "Writes."), { nil: undefined }),
  risk: fc.constantFrom(...RISKS),
  expose: fc.subarray(SURFACES, { minLength: 1 }),
  toolNames: fc.option(fc.record({ aiSdk: fc.constantFrom("a", "b"), mcp: fc.constantFrom("m", "n") }, { requiredKeys: [] }), { nil: undefined }),
  discovery: fc.constantFrom("discoverable" as const, "contextual" as const),
  approval: fc.option(
    fc.record({ required: fc.boolean(), type: fc.constantFrom("manager", "finance"), expiresInMs: fc.constantFrom(1_000, 60_000) }, { requiredKeys: ["required"] }),
    { nil: undefined },
  ),
  idempotent: fc.boolean(),
  timeoutMs: fc.option(fc.constantFrom(500, 5_000), { nil: undefined }),
  tags: fc.subarray(["billing", "orders"]),
  policies: fc.array(fc.constantFrom(...POLICY_NAMES), { maxLength: 4 }),
  redact: fc.option(fc.record({ output: fc.boolean(), approvalInput: fc.boolean() }), { nil: undefined }),
  inputSchemaHash: fc.constantFrom<string | null>(null, "sha256:aa", "sha256:bb", "unconvertible"),
});

type Variable = typeof variable extends fc.Arbitrary<infer T> ? T : never;

function entryOf(id: string, f: Fixed, v: Variable): CapabilityEntry {
  const out: CapabilityEntry = { id, sideEffect: f.sideEffect, risk: v.risk, expose: [...v.expose].sort(), discovery: v.discovery, idempotent: v.idempotent, tags: v.tags, policies: v.policies, inputSchemaHash: v.inputSchemaHash };
  if (v.description !== undefined) out.description = v.description;
  if (v.toolNames !== undefined) out.toolNames = v.toolNames;
  if (v.approval !== undefined) out.approval = v.approval;
  if (f.retry !== undefined) out.retry = f.retry;
  if (v.timeoutMs !== undefined) out.timeoutMs = v.timeoutMs;
  if (v.redact !== undefined) out.redact = v.redact;
  return out;
}

const runtimePolicy = (withCandidates: boolean): fc.Arbitrary<RuntimePolicyEntry> =>
  fc
    .record(
      {
        name: fc.constantFrom(...POLICY_NAMES),
        phases: fc.subarray(PHASES, { minLength: 1 }),
        scope: fc.record({ capabilities: fc.record({ tags: fc.subarray(["billing", "orders"]) }, { requiredKeys: [] }), surfaces: fc.subarray(SURFACES) }, { requiredKeys: [] }),
        candidates: fc.subarray(IDS),
      },
      { requiredKeys: ["name", "phases"] },
    )
    .map((p) => {
      const out: RuntimePolicyEntry = { name: p.name, phases: p.phases };
      if (p.scope !== undefined) out.scope = p.scope;
      if (withCandidates) out.candidates = p.candidates ?? [];
      return out;
    });

/** Two snapshots differing only where docs/architecture/spec/cli.md#cli-7 classifies both directions. */
const symmetricPair: fc.Arbitrary<[CapabilitySnapshot, CapabilitySnapshot]> = fc
  .record({
    fixedById: fc.tuple(...IDS.map(() => fixed)),
    presence: fc.tuple(...IDS.map(() => fc.constantFrom("both", "before", "after", "neither"))),
    before: fc.tuple(...IDS.map(() => variable)),
    after: fc.tuple(...IDS.map(() => variable)),
    // `runtime` present on both sides or on neither; `candidates` likewise (the one-directional rows of docs/architecture/spec/cli.md#cli-7-3).
    runtime: fc.constantFrom("absent", "without-candidates", "with-candidates"),
  })
  .chain((r) =>
    fc.tuple(fc.constant(r), fc.array(runtimePolicy(r.runtime === "with-candidates"), { maxLength: 4 }), fc.array(runtimePolicy(r.runtime === "with-candidates"), { maxLength: 4 })),
  )
  .map(([r, policiesBefore, policiesAfter]) => {
    const side = (which: "before" | "after"): CapabilitySnapshot => {
      const capabilities = IDS.flatMap((id, i) => (r.presence[i] === "both" || r.presence[i] === which ? [entryOf(id, r.fixedById[i]!, r[which][i]!)] : []));
      const snap: CapabilitySnapshot = { version: 3, capabilities, excluded: [], unexposed: [] };
      if (r.runtime !== "absent") snap.runtime = { policies: which === "before" ? policiesBefore : policiesAfter };
      return snap;
    };
    return [side("before"), side("after")];
  });

const SWAP = { widening: "narrowing", narrowing: "widening", neutral: "neutral" } as const;

/** The classification as a multiset, ignoring message text and generation order. */
function classified(changes: Change[], swap = false): string[] {
  return changes.map((c) => `${swap ? SWAP[c.kind] : c.kind} ${c.id} ${c.field}`).sort();
}

describe("drift classification properties (cli.md §7)", () => {
  it("swapping baseline and current swaps widening and narrowing, and keeps neutral", () => {
    fc.assert(
      fc.property(symmetricPair, ([before, after]) => {
        const forward = diffSnapshots(before, after);
        const backward = diffSnapshots(after, before);
        expect(classified(backward, true)).toEqual(classified(forward));
      }),
      { numRuns: 500 },
    );
  });

  it("a snapshot never drifts from itself", () => {
    fc.assert(
      fc.property(symmetricPair, ([before, after]) => {
        expect(diffSnapshots(before, before)).toEqual([]);
        expect(diffSnapshots(after, after)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("the one-directional rows: any sideEffect change widens both ways; observation starting is neutral, stopping widens", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SIDE_EFFECTS), fc.constantFrom(...SIDE_EFFECTS), variable, (from, to, v) => {
        fc.pre(from !== to);
        const a: CapabilitySnapshot = { version: 3, capabilities: [entryOf("c0", { sideEffect: from }, v)], excluded: [], unexposed: [] };
        const b: CapabilitySnapshot = { version: 3, capabilities: [entryOf("c0", { sideEffect: to }, v)], excluded: [], unexposed: [] };
        expect(classified(diffSnapshots(a, b))).toEqual(["widening c0 sideEffect"]);
        expect(classified(diffSnapshots(b, a))).toEqual(["widening c0 sideEffect"]);

        const observed: CapabilitySnapshot = { ...a, runtime: { policies: [] } };
        expect(classified(diffSnapshots(a, observed))).toEqual(["neutral (runtime) runtime"]);
        expect(classified(diffSnapshots(observed, a))).toEqual(["widening (runtime) runtime"]);
      }),
      { numRuns: 100 },
    );
  });
});
