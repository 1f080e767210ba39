import { describe, expect, it } from "vitest";
import { diffSnapshots } from "../../src/drift/diff-snapshots.js";
import type { Change } from "../../src/drift/types.js";
import type { CapabilityEntry, CapabilitySnapshot, RuntimePolicyEntry } from "../../src/snapshot/types.js";
import { entry, policy, snapshot } from "../helpers/snapshots.js";

/** Diff of one capability before/after, as [kind, field] pairs. */
function fieldDiff(before: Partial<CapabilityEntry>, after: Partial<CapabilityEntry>): [string, string][] {
  return diffSnapshots(snapshot([entry("c", before)]), snapshot([entry("c", after)])).map((c) => [c.kind, c.field]);
}

function kinds(changes: Change[]): string[] {
  return changes.map((c) => `${c.kind} ${c.id} ${c.field}`);
}

describe("diffSnapshots §7.1: per capability", () => {
  it("expose: a gained surface is widening, a lost one narrowing", () => {
    const changes = diffSnapshots(snapshot([entry("c", { expose: ["aiSdk"] })]), snapshot([entry("c", { expose: ["direct"] })]));
    expect(changes).toContainEqual({ kind: "widening", id: "c", field: "expose", message: "now exposed on direct" });
    expect(changes).toContainEqual({ kind: "narrowing", id: "c", field: "expose", message: "no longer exposed on aiSdk" });
  });

  it("sideEffect: declaring less is widening (policies keyed on the old value stop matching)", () => {
    expect(fieldDiff({ sideEffect: "destructive" }, { sideEffect: "read" })).toEqual([["widening", "sideEffect"]]);
  });

  it("sideEffect: declaring more is widening too", () => {
    expect(fieldDiff({ sideEffect: "read" }, { sideEffect: "external" })).toEqual([["widening", "sideEffect"]]);
  });

  it("risk: lowered is widening, raised is narrowing", () => {
    expect(fieldDiff({ risk: "critical" }, { risk: "medium" })).toEqual([["widening", "risk"]]);
    expect(fieldDiff({ risk: "low" }, { risk: "high" })).toEqual([["narrowing", "risk"]]);
  });

  it("approval: required → not required (including removal) is widening, the reverse narrowing", () => {
    expect(fieldDiff({ approval: { required: true } }, { approval: { required: false } })).toEqual([["widening", "approval"]]);
    expect(fieldDiff({ approval: { required: true } }, {})).toEqual([["widening", "approval"]]);
    expect(fieldDiff({}, { approval: { required: true } })).toEqual([["narrowing", "approval"]]);
  });

  it("approval.type: a change while required on both sides is neutral", () => {
    expect(fieldDiff({ approval: { required: true, type: "a" } }, { approval: { required: true, type: "b" } })).toEqual([["neutral", "approval.type"]]);
    expect(fieldDiff({ approval: { required: false, type: "a" } }, { approval: { required: false, type: "b" } })).toEqual([]);
  });

  it("approval.expiresInMs: grew is widening, shrank narrowing, set ↔ unset neutral", () => {
    const required = (expiresInMs?: number) => ({ approval: { required: true, ...(expiresInMs !== undefined ? { expiresInMs } : {}) } });
    expect(fieldDiff(required(1_000), required(5_000))).toEqual([["widening", "approval.expiresInMs"]]);
    expect(fieldDiff(required(5_000), required(1_000))).toEqual([["narrowing", "approval.expiresInMs"]]);
    expect(fieldDiff(required(1_000), required())).toEqual([["neutral", "approval.expiresInMs"]]);
    expect(fieldDiff(required(), required(1_000))).toEqual([["neutral", "approval.expiresInMs"]]);
  });

  it("approval.quorum: fewer approvers is widening, more narrowing (1 when absent), also while policies decide the gate", () => {
    const gate = (quorum?: number, required = true) => ({ approval: { required, ...(quorum !== undefined ? { quorum } : {}) } });
    expect(fieldDiff(gate(3), gate(2))).toEqual([["widening", "approval.quorum"]]);
    expect(fieldDiff(gate(2), gate())).toEqual([["widening", "approval.quorum"]]);
    expect(fieldDiff(gate(), gate(2))).toEqual([["narrowing", "approval.quorum"]]);
    expect(fieldDiff(gate(2, false), gate(undefined, false))).toEqual([["widening", "approval.quorum"]]);
    expect(fieldDiff(gate(2), {})).toEqual([["widening", "approval"]]);
    // Policy-gated: dropping the metadata leaves one approver (issue 29, SI-8 attack).
    expect(fieldDiff(gate(2, false), {})).toEqual([["widening", "approval.quorum"]]);
    expect(fieldDiff({}, gate(2, false))).toEqual([["narrowing", "approval.quorum"]]);
    expect(fieldDiff(gate(2), gate(2))).toEqual([]);
  });

  it("SI-11: idempotent false → true is widening (it permits retrying a write); the reverse narrowing", () => {
    expect(fieldDiff({ idempotent: false }, { idempotent: true })).toEqual([["widening", "idempotent"]]);
    expect(fieldDiff({ idempotent: true }, { idempotent: false })).toEqual([["narrowing", "idempotent"]]);
  });

  it("retry: more attempts on a write-like capability is widening (absent = 0)", () => {
    expect(fieldDiff({ sideEffect: "write" }, { sideEffect: "write", retry: { maxAttempts: 2, retryOn: false } })).toEqual([["widening", "retry"]]);
    expect(fieldDiff({ retry: { maxAttempts: 1, retryOn: false } }, { retry: { maxAttempts: 3, retryOn: false } })).toEqual([["widening", "retry"]]);
  });

  it("retry: any other change is neutral — more attempts on a read, fewer attempts, backoffMs, retryOn", () => {
    expect(fieldDiff({ sideEffect: "read" }, { sideEffect: "read", retry: { maxAttempts: 2, retryOn: false } })).toEqual([["neutral", "retry"]]);
    expect(fieldDiff({ retry: { maxAttempts: 3, retryOn: false } }, { retry: { maxAttempts: 1, retryOn: false } })).toEqual([["neutral", "retry"]]);
    expect(fieldDiff({ retry: { maxAttempts: 1, backoffMs: 10, retryOn: false } }, { retry: { maxAttempts: 1, backoffMs: 20, retryOn: false } })).toEqual([["neutral", "retry"]]);
    expect(fieldDiff({ retry: { maxAttempts: 1, retryOn: false } }, { retry: { maxAttempts: 1, retryOn: true } })).toEqual([["neutral", "retry"]]);
  });

  it("policies: a removed name is widening, an added one narrowing, a reordered set neutral", () => {
    expect(fieldDiff({ policies: ["a", "b"] }, { policies: ["a"] })).toEqual([["widening", "policies"]]);
    expect(fieldDiff({ policies: ["a"] }, { policies: ["a", "b"] })).toEqual([["narrowing", "policies"]]);
    expect(fieldDiff({ policies: ["a", "b"] }, { policies: ["b", "a"] })).toEqual([["neutral", "policies"]]);
  });

  it("policies: duplicates pair by name and occurrence, so dropping one of two is still a removal", () => {
    const changes = diffSnapshots(snapshot([entry("c", { policies: ["a", "a"] })]), snapshot([entry("c", { policies: ["a"] })]));
    expect(changes).toEqual([{ kind: "widening", id: "c", field: "policies", message: "policy removed: a" }]);
  });

  it("redact: a removed hook is widening, an added one narrowing", () => {
    expect(fieldDiff({ redact: { output: true, approvalInput: true } }, { redact: { output: false, approvalInput: true } })).toEqual([["widening", "redact.output"]]);
    expect(fieldDiff({ redact: { output: true, approvalInput: true } }, {})).toEqual([
      ["widening", "redact.output"],
      ["widening", "redact.approvalInput"],
    ]);
    expect(fieldDiff({}, { redact: { output: false, approvalInput: true } })).toEqual([["narrowing", "redact.approvalInput"]]);
  });

  it("toolNames: a rename on a surface present on both sides is neutral; a surface on one side only is the expose row's", () => {
    expect(fieldDiff({ toolNames: { aiSdk: "old" } }, { toolNames: { aiSdk: "new" } })).toEqual([["neutral", "toolNames"]]);
    expect(fieldDiff({ toolNames: { aiSdk: "x" } }, { toolNames: { aiSdk: "x", mcp: "y" } })).toEqual([]);
  });

  it("discovery: contextual → discoverable is widening, the reverse narrowing", () => {
    expect(fieldDiff({ discovery: "contextual" }, { discovery: "discoverable" })).toEqual([["widening", "discovery"]]);
    expect(fieldDiff({ discovery: "discoverable" }, { discovery: "contextual" })).toEqual([["narrowing", "discovery"]]);
  });

  it("inputSchema: any hash change is neutral, including to and from null and unconvertible", () => {
    expect(fieldDiff({ inputSchemaHash: "sha256:aa" }, { inputSchemaHash: "sha256:bb" })).toEqual([["neutral", "inputSchema"]]);
    expect(fieldDiff({ inputSchemaHash: null }, { inputSchemaHash: "sha256:bb" })).toEqual([["neutral", "inputSchema"]]);
    expect(fieldDiff({ inputSchemaHash: "sha256:aa" }, { inputSchemaHash: "unconvertible" })).toEqual([["neutral", "inputSchema"]]);
  });

  it("description, timeoutMs and tags changes are neutral", () => {
    expect(fieldDiff({ description: "Old." }, { description: "New." })).toEqual([["neutral", "description"]]);
    expect(fieldDiff({ timeoutMs: 1_000 }, {})).toEqual([["neutral", "timeoutMs"]]);
    expect(fieldDiff({ tags: ["a"] }, { tags: ["a", "b"] })).toEqual([["neutral", "tags"]]);
  });

  it("a description omitted by --no-descriptions on one side is not drift", () => {
    expect(fieldDiff({ description: "Text." }, { description: undefined })).toEqual([]);
  });

  it("reports fields in the §7.1 row order", () => {
    const changes = fieldDiff(
      { expose: ["aiSdk"], sideEffect: "write", risk: "high", tags: ["a"], discovery: "contextual" },
      { expose: ["aiSdk", "mcp"], sideEffect: "read", risk: "low", tags: ["b"], discovery: "discoverable" },
    );
    expect(changes.map(([, field]) => field)).toEqual(["expose", "sideEffect", "risk", "discovery", "tags"]);
  });

  it("identical snapshots give no changes", () => {
    const same = snapshot([entry("a"), entry("b")], { excluded: ["x"], runtime: { policies: [policy("p")] } });
    expect(diffSnapshots(same, structuredClone(same))).toEqual([]);
  });
});

describe("diffSnapshots §7.2: capability set", () => {
  it("a new capability exposed on a surface is widening; exposed nowhere, neutral", () => {
    const changes = diffSnapshots(snapshot([]), snapshot([entry("a", { expose: ["mcp"] }), entry("b", { expose: [] })]));
    expect(changes).toEqual([
      { kind: "widening", id: "a", field: "capability", message: "new capability, exposed on mcp" },
      { kind: "neutral", id: "b", field: "capability", message: "new capability, exposed on no surface" },
    ]);
  });

  it("a removed capability is narrowing", () => {
    expect(diffSnapshots(snapshot([entry("a")]), snapshot([]))).toEqual([
      { kind: "narrowing", id: "a", field: "capability", message: "capability removed" },
    ]);
  });

  it("a capability that lost meta.agent is reported once, as newly excluded, replacing 'capability removed'", () => {
    const changes = diffSnapshots(snapshot([entry("a")]), snapshot([], { excluded: ["a"] }));
    expect(changes).toEqual([{ kind: "narrowing", id: "a", field: "excluded", message: "lost meta.agent: no longer a capability" }]);
  });

  it("a new path without meta.agent is narrowing", () => {
    expect(kinds(diffSnapshots(snapshot([]), snapshot([], { excluded: ["health.ping"] })))).toEqual(["narrowing health.ping excluded"]);
  });

  it("a path leaving excluded without becoming a capability is neutral", () => {
    expect(kinds(diffSnapshots(snapshot([], { excluded: ["old"] }), snapshot([])))).toEqual(["neutral old excluded"]);
  });

  it("a path leaving excluded by becoming a capability is reported only as the new capability", () => {
    expect(kinds(diffSnapshots(snapshot([], { excluded: ["a"] }), snapshot([entry("a")])))).toEqual(["widening a capability"]);
  });

  it("unexposed is never diffed (it is derived from expose)", () => {
    expect(diffSnapshots(snapshot([entry("a")], { unexposed: ["a"] }), snapshot([entry("a")], { unexposed: [] }))).toEqual([]);
  });
});

describe("diffSnapshots §7.3: runtime policies", () => {
  const caps = [entry("a", { tags: ["t"] }), entry("b")];
  const withPolicies = (policies: RuntimePolicyEntry[], capabilities: CapabilityEntry[] = caps): CapabilitySnapshot =>
    snapshot(capabilities, { runtime: { policies } });

  it("absent → present is neutral: 'now observed' (covers every v1 baseline)", () => {
    expect(diffSnapshots(snapshot(caps), withPolicies([policy("p")]))).toEqual([
      { kind: "neutral", id: "(runtime)", field: "runtime", message: "runtime policies now observed (1 configured)" },
    ]);
  });

  it("present → absent is widening: observation stopped", () => {
    expect(kinds(diffSnapshots(withPolicies([]), snapshot(caps)))).toEqual(["widening (runtime) runtime"]);
  });

  it("a removed runtime policy is widening, named in the message", () => {
    const changes = diffSnapshots(withPolicies([policy("tenant-guard"), policy("spend-limit")]), withPolicies([policy("tenant-guard")]));
    expect(changes).toEqual([{ kind: "widening", id: "(runtime)", field: "runtime.policies", message: "runtime policy removed: spend-limit" }]);
  });

  it("an added runtime policy is narrowing", () => {
    expect(kinds(diffSnapshots(withPolicies([]), withPolicies([policy("p")])))).toEqual(["narrowing (runtime) runtime.policies"]);
  });

  it("a dropped phase is widening, a gained phase narrowing", () => {
    const changes = diffSnapshots(
      withPolicies([policy("p", { phases: ["discovery", "invocation"] })]),
      withPolicies([policy("p", { phases: ["execution", "invocation"] })]),
    );
    expect(changes).toEqual([
      { kind: "widening", id: "(runtime)", field: "runtime.phases", message: "runtime policy p no longer runs at discovery" },
      { kind: "narrowing", id: "(runtime)", field: "runtime.phases", message: "runtime policy p now also runs at execution" },
    ]);
  });

  it("same names in a new order is neutral", () => {
    expect(kinds(diffSnapshots(withPolicies([policy("x"), policy("y")]), withPolicies([policy("y"), policy("x")])))).toEqual([
      "neutral (runtime) runtime.policies",
    ]);
  });

  it("duplicate policy names pair by name and occurrence index", () => {
    const changes = diffSnapshots(
      withPolicies([policy("p", { candidates: ["a"] }), policy("p", { candidates: ["b"] })]),
      withPolicies([policy("p", { candidates: ["a"] })]),
    );
    expect(kinds(changes)).toEqual(["widening (runtime) runtime.policies"]);
  });

  it("scope: an existing capability leaving the candidates is widening, under its id", () => {
    const changes = diffSnapshots(withPolicies([policy("p", { candidates: ["a", "b"] })]), withPolicies([policy("p", { candidates: ["b"] })]));
    expect(changes).toEqual([{ kind: "widening", id: "a", field: "runtime.scope", message: "left the candidates of runtime policy p" }]);
  });

  it("scope: an existing capability joining the candidates is narrowing", () => {
    const changes = diffSnapshots(withPolicies([policy("p", { candidates: [] })]), withPolicies([policy("p", { candidates: ["b"] })]));
    expect(kinds(changes)).toEqual(["narrowing b runtime.scope"]);
  });

  it("scope: a tag edit that moves a capability out of scope is reported as scope loss besides the edit", () => {
    const scope = { capabilities: { tags: ["t"] } };
    const before = withPolicies([policy("p", { scope, candidates: ["a"] })]);
    const after = withPolicies([policy("p", { scope, candidates: [] })], [entry("a", { tags: [] }), entry("b")]);
    expect(kinds(diffSnapshots(before, after))).toEqual(["neutral a tags", "widening a runtime.scope"]);
  });

  it("scope: an unscoped policy gaining `surfaces` loses the other surfaces (widening)", () => {
    const changes = diffSnapshots(
      withPolicies([policy("p", { candidates: ["a", "b"] })]),
      withPolicies([policy("p", { scope: { surfaces: ["aiSdk", "mcp"] }, candidates: ["a", "b"] })]),
    );
    expect(changes.map((c) => `${c.kind} ${c.field} ${c.message}`)).toEqual([
      "widening runtime.surfaces runtime policy p no longer applies on direct",
      "widening runtime.surfaces runtime policy p no longer applies on workflow",
      "widening runtime.surfaces runtime policy p no longer applies on test",
    ]);
  });

  it("scope: gaining a surface is narrowing", () => {
    const changes = diffSnapshots(
      withPolicies([policy("p", { scope: { surfaces: ["aiSdk"] }, candidates: ["a"] })]),
      withPolicies([policy("p", { scope: { surfaces: ["aiSdk", "mcp"] }, candidates: ["a"] })]),
    );
    expect(kinds(changes)).toEqual(["narrowing (runtime) runtime.surfaces"]);
  });

  it("scope: a selector change with no candidate or surface delta is neutral", () => {
    const changes = diffSnapshots(
      withPolicies([policy("p", { scope: { capabilities: { ids: ["a"] } }, candidates: ["a"] })]),
      withPolicies([policy("p", { scope: { capabilities: { tags: ["t"] } }, candidates: ["a"] })]),
    );
    expect(changes).toEqual([
      { kind: "neutral", id: "(runtime)", field: "runtime.scope", message: "selector of runtime policy p changed: ids=a → tags=t" },
    ]);
  });

  it("scope: absent scope ≡ {} — no change reported", () => {
    expect(diffSnapshots(withPolicies([policy("p", { candidates: ["a"] })]), withPolicies([policy("p", { scope: {}, candidates: ["a"] })]))).toEqual([]);
  });

  it("scope: candidates present → absent is widening; absent → present (every v2 baseline) neutral", () => {
    const scoped = withPolicies([policy("p", { candidates: ["a"] })]);
    const unscoped = withPolicies([{ name: "p", phases: ["invocation"] }]);
    expect(kinds(diffSnapshots(scoped, unscoped))).toEqual(["widening (runtime) runtime.scope"]);
    expect(kinds(diffSnapshots(unscoped, scoped))).toEqual(["neutral (runtime) runtime.scope"]);
  });

  it("added and removed capabilities keep their own classification and are not also scope drift", () => {
    const before = withPolicies([policy("p", { candidates: ["a", "gone"] })], [entry("a"), entry("gone")]);
    const after = withPolicies([policy("p", { candidates: ["a", "new"] })], [entry("a"), entry("new")]);
    expect(kinds(diffSnapshots(before, after))).toEqual(["widening new capability", "narrowing gone capability"]);
  });
});

describe("diffSnapshots §7.4: generation order", () => {
  it("capabilities in after order, then removed capabilities, runtime changes, excluded", () => {
    const before = snapshot([entry("z"), entry("gone"), entry("a")], { excluded: ["old"], runtime: { policies: [policy("p")] } });
    const after = snapshot([entry("a", { risk: "low" }), entry("new"), entry("z", { risk: "high" })], {
      excluded: ["fresh"],
      runtime: { policies: [] },
    });
    expect(kinds(diffSnapshots(before, after))).toEqual([
      "widening a risk",
      "widening new capability",
      "narrowing z risk",
      "narrowing gone capability",
      "widening (runtime) runtime.policies",
      "narrowing fresh excluded",
      "neutral old excluded",
    ]);
  });
});
