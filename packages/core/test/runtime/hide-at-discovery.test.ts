// The policies guide's pattern for a capability a policy always denies to models (docs/guides/policies.md, issue 27):
// hidden from model tool lists at discovery, still refused with a relayable message when a model guesses the name,
// and untouched on the surfaces the scope leaves out.
import { describe, expect, it } from "vitest";
import { createInMemoryApprovalCoordinator, definePolicy, deny, hide } from "../../src/index.js";
import { build, counted, dana, errorOf } from "./pipeline-harness.js";

// Verbatim from the guide.
const noModelDeletes = definePolicy(
  "no-model-deletes",
  ({ phase }) => (phase === "discovery" ? hide() : deny("AGENTS_MAY_NOT_DELETE", "Ask a human administrator to delete accounts.")),
  { phases: ["discovery", "invocation"], scope: { capabilities: { sideEffects: ["destructive"] }, surfaces: ["aiSdk", "mcp"] } },
);

function app() {
  const remove = counted({ expose: { aiSdk: true, mcp: true, direct: true }, sideEffect: "destructive", risk: "high" });
  const read = counted({ expose: { aiSdk: true, mcp: true, direct: true } });
  // A coordinator, so the invocation-phase policy on a write does not print the W2 startup warning.
  const built = build({
    defs: { accounts: { delete: remove.procedure, get: read.procedure } },
    policies: [noModelDeletes],
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
  });
  return { ...built, deletions: remove.calls };
}

const ids = (descriptors: { id: string }[]) => descriptors.map((d) => d.id);

describe("hide() at discovery, deny at invocation (policies guide)", () => {
  it("model surfaces do not list the capability; the direct surface still does", async () => {
    const { runtime } = app();
    for (const surface of ["aiSdk", "mcp"] as const) expect(ids(await runtime.describe(surface, { actor: dana, context: {} }))).toEqual(["accounts.get"]);
    expect(ids(await runtime.describe("direct", { actor: dana, context: {} }))).toEqual(["accounts.delete", "accounts.get"]);
  });

  it("a model that guesses the name is refused with the policy's public message, and the handler never runs", async () => {
    const { runtime, deletions, ofType } = app();
    const error = errorOf(await runtime.invoke("accounts.delete", undefined, { actor: dana, context: {}, surface: "aiSdk" }));
    expect(error).toMatchObject({ code: "POLICY_DENIED", publicMessage: "Ask a human administrator to delete accounts." });
    expect(deletions.count).toBe(0);
    expect(ofType("capability.denied")[0]?.data).toMatchObject({ reason: "policy-denied" });
  });

  it("server code on the direct surface is outside the scope and runs", async () => {
    const { runtime, deletions } = app();
    expect(await runtime.invoke("accounts.delete", undefined, { actor: dana, context: {}, surface: "direct" })).toMatchObject({ status: "completed" });
    expect(deletions.count).toBe(1);
  });
});
