// Drift of standing-grant caps (issue 45, SI-13): adding or widening `approval.grants` widens what one decision can
// authorize; narrowing or removing them is narrowing. Judged whether or not approval is required, since policies
// may demand the approvals a grant covers.
import { describe, expect, it } from "vitest";
import { capabilityChanges } from "@orpc-agent/core/drift";
import type { CapabilityEntry } from "../../src/snapshot/types.js";
import { entry } from "../helpers/snapshots.js";

type Caps = NonNullable<NonNullable<CapabilityEntry["approval"]>["grants"]>;
const caps = (overrides: Partial<Caps> = {}): Caps => ({ maxUses: 5, maxTtlMs: 60_000, scopes: ["conversation"], ...overrides });
const gated = (grants?: Caps, required = true) => entry("refund", { approval: { required, ...(grants ? { grants } : {}) } });
const lines = (before: CapabilityEntry, after: CapabilityEntry) => capabilityChanges(before, after).map((c) => `${c.kind} ${c.field} ${c.message}`);

describe("grant caps drift (SI-13)", () => {
  it("adding grants is widening", () => {
    expect(lines(gated(), gated(caps()))).toEqual(["widening approval.grants standing grants now allowed: maxUses 5, maxTtlMs 60000ms, scopes conversation"]);
  });

  it("removing grants is narrowing", () => {
    expect(lines(gated(caps()), gated())).toEqual(["narrowing approval.grants standing grants no longer allowed"]);
  });

  it("a higher maxUses or a longer maxTtlMs is widening, lower or shorter narrowing", () => {
    expect(lines(gated(caps()), gated(caps({ maxUses: 6 })))).toEqual(["widening approval.grants grant maxUses 5 → 6"]);
    expect(lines(gated(caps()), gated(caps({ maxUses: 1 })))).toEqual(["narrowing approval.grants grant maxUses 5 → 1"]);
    expect(lines(gated(caps()), gated(caps({ maxTtlMs: 60_001 })))).toEqual(["widening approval.grants grant maxTtlMs 60000ms → 60001ms"]);
    expect(lines(gated(caps()), gated(caps({ maxTtlMs: 1_000 })))).toEqual(["narrowing approval.grants grant maxTtlMs 60000ms → 1000ms"]);
  });

  it("a new scope is widening, a dropped one narrowing, both reported when swapped", () => {
    expect(lines(gated(caps()), gated(caps({ scopes: ["actor", "conversation"] })))).toEqual(["widening approval.grants grant scope now allowed: actor"]);
    expect(lines(gated(caps({ scopes: ["actor", "conversation"] })), gated(caps()))).toEqual(["narrowing approval.grants grant scope no longer allowed: actor"]);
    expect(lines(gated(caps()), gated(caps({ scopes: ["actor"] })))).toEqual([
      "widening approval.grants grant scope now allowed: actor",
      "narrowing approval.grants grant scope no longer allowed: conversation",
    ]);
  });

  it("mixed changes are each classified on their own", () => {
    expect(lines(gated(caps()), gated(caps({ maxUses: 9, maxTtlMs: 1_000 })))).toEqual([
      "widening approval.grants grant maxUses 5 → 9",
      "narrowing approval.grants grant maxTtlMs 60000ms → 1000ms",
    ]);
  });

  it("caps on a capability whose approvals only policies demand still count", () => {
    expect(lines(gated(undefined, false), gated(caps(), false))).toEqual([
      "widening approval.grants standing grants now allowed: maxUses 5, maxTtlMs 60000ms, scopes conversation",
    ]);
    // Dropping the approval metadata altogether drops the caps too: no grant can cover the capability any more.
    expect(lines(gated(caps(), false), entry("refund"))).toEqual(["narrowing approval.grants standing grants no longer allowed"]);
  });

  it("the same caps are no drift", () => {
    expect(lines(gated(caps()), gated(caps()))).toEqual([]);
  });
});
