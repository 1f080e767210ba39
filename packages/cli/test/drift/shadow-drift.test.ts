// Drift of shadow policies (issue 30 part 1): a shadow policy decides nothing, so only its move between modes
// changes reach — shadow → enforced narrows, enforced → shadow widens.
import { describe, expect, it } from "vitest";
import { diffSnapshots } from "../../src/drift/diff-snapshots.js";
import type { RuntimePolicyEntry } from "../../src/snapshot/types.js";
import { entry, policy, snapshot } from "../helpers/snapshots.js";

const caps = [entry("a"), entry("b")];
const withPolicies = (policies: RuntimePolicyEntry[]) => snapshot(caps, { runtime: { policies } });
const shadow = (name: string, overrides: Partial<RuntimePolicyEntry> = {}): RuntimePolicyEntry => ({ ...policy(name, overrides), mode: "shadow" });
const lines = (changes: ReturnType<typeof diffSnapshots>) => changes.map((c) => `${c.kind} ${c.field} ${c.message}`);

describe("runtime shadow policies", () => {
  it("enforced → shadow is widening", () => {
    expect(lines(diffSnapshots(withPolicies([policy("limit")]), withPolicies([shadow("limit")])))).toEqual([
      "widening runtime.policies runtime policy now in shadow mode, no longer enforced: limit",
    ]);
  });

  it("shadow → enforced is narrowing", () => {
    expect(lines(diffSnapshots(withPolicies([shadow("limit")]), withPolicies([policy("limit")])))).toEqual([
      "narrowing runtime.policies runtime shadow policy now enforced: limit",
    ]);
  });

  it("adding, removing or rescoping a shadow policy is neutral", () => {
    expect(lines(diffSnapshots(withPolicies([]), withPolicies([shadow("s")])))).toEqual(["neutral runtime.policies runtime shadow policy added: s"]);
    expect(lines(diffSnapshots(withPolicies([shadow("s")]), withPolicies([])))).toEqual(["neutral runtime.policies runtime shadow policy removed: s"]);
    const rescoped = diffSnapshots(
      withPolicies([shadow("s", { candidates: ["a", "b"] })]),
      withPolicies([shadow("s", { candidates: ["a"], phases: ["discovery"] })]),
    );
    expect(rescoped.length).toBeGreaterThan(0);
    expect(rescoped.every((c) => c.kind === "neutral")).toBe(true);
  });

  it("the same name enforced and shadowed at once pairs within its mode", () => {
    expect(diffSnapshots(withPolicies([policy("p"), shadow("p")]), withPolicies([policy("p"), shadow("p")]))).toEqual([]);
  });

  it("scope.via: narrowing the acting agents a policy applies to is widening, dropping the selector narrowing", () => {
    const scoped = (via?: string[]) => policy("p", via === undefined ? {} : { scope: { via } });
    expect(lines(diffSnapshots(withPolicies([scoped()]), withPolicies([scoped(["bot"])])))).toEqual(["widening runtime.via runtime policy p now applies only via bot"]);
    expect(lines(diffSnapshots(withPolicies([scoped(["bot"])]), withPolicies([scoped()])))).toEqual(["narrowing runtime.via runtime policy p now applies whatever the acting agent"]);
    expect(lines(diffSnapshots(withPolicies([scoped(["a", "b"])]), withPolicies([scoped(["b", "c"])])))).toEqual([
      "widening runtime.via runtime policy p no longer applies via a",
      "narrowing runtime.via runtime policy p now applies via c",
    ]);
  });
});

describe("capability-level shadow policies", () => {
  const cap = (policies: string[], shadowPolicies?: string[]) => snapshot([entry("c", { policies, ...(shadowPolicies ? { shadowPolicies } : {}) })]);

  it("enforced → shadow widens, shadow → enforced narrows, shadow-only changes are neutral", () => {
    expect(lines(diffSnapshots(cap(["p"]), cap([], ["p"])))).toEqual(["widening policies policy now in shadow mode, no longer enforced: p"]);
    expect(lines(diffSnapshots(cap([], ["p"]), cap(["p"])))).toEqual(["narrowing policies shadow policy now enforced: p"]);
    expect(lines(diffSnapshots(cap([]), cap([], ["s"])))).toEqual(["neutral shadowPolicies shadow policy added: s"]);
  });
});

describe("snapshot and inspect list shadow policies", () => {
  it("the snapshot marks runtime shadow policies and lists a capability's own apart; inspect shows both", async () => {
    const { os } = await import("@orpc/server");
    const core = await import("@orpc-agent/core");
    const { buildSnapshot } = await import("../../src/snapshot/build-snapshot.js");
    const { renderInventory } = await import("../../src/render/inventory.js");
    const own = core.definePolicy("own-trial", () => core.allow(), { mode: "shadow" });
    const registry = core.createCapabilityRegistry({
      refund: core
        .agentProcedure(os)
        .meta({ agent: { description: "Refund.", expose: { direct: true }, sideEffect: "write", risk: "high", policies: [own] } })
        .handler(() => "ok"),
    });
    const governance = core.defineGovernance({
      registry,
      policies: [core.definePolicy("enforced", () => core.allow())],
      shadowPolicies: [core.definePolicy("trial-limit", () => core.deny(), { scope: { via: ["support-bot"] } })],
    });
    const snap = buildSnapshot(governance);
    expect(snap.runtime?.policies).toEqual([
      { name: "enforced", phases: ["invocation"], candidates: ["refund"] },
      { name: "trial-limit", phases: ["invocation"], scope: { via: ["support-bot"] }, candidates: ["refund"], mode: "shadow" },
    ]);
    expect(snap.capabilities[0]).toMatchObject({ policies: [], shadowPolicies: ["own-trial"] });
    const text = renderInventory(snap, { color: false }, "governance");
    expect(text).toContain("runtime:trial-limit (shadow)");
    expect(text).toContain("own-trial (shadow)");
    expect(text).toContain("via=support-bot");
    expect(text).toContain("Shadow policies are evaluated and audited, never enforced.");

    // The written form (`snapshot`, `inspect --json`) keeps both: read back, it is the built snapshot, so a baseline
    // just written shows no drift (dropping `mode` made the shadow policy read as enforced, a false widening).
    const { snapshotJson } = await import("../../src/snapshot/snapshot-json.js");
    const { parseSnapshot } = await import("../../src/snapshot/parse-snapshot.js");
    const written = snapshotJson(snap);
    expect(JSON.parse(written).runtime.policies[1]).toMatchObject({ name: "trial-limit", mode: "shadow" });
    expect(JSON.parse(written).capabilities[0].shadowPolicies).toEqual(["own-trial"]);
    const reread = parseSnapshot(written);
    expect(reread).toEqual(snap);
    expect(diffSnapshots(reread, snap)).toEqual([]);
  });
});
