// SI-3: the actor is read once, at stage 2; the handler runs as the actor the audit names (issue 22, item 8).
import { allow, definePolicy, type Actor } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { base, build, meta } from "./support/runtime.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W2"]);

function whoRan() {
  const ranAs: string[] = [];
  const procedure = base.meta({ agent: meta() }).handler(({ context }) => {
    ranAs.push(context.agent!.actor.id);
    return "done";
  });
  return { procedure, ranAs };
}

describe("the actor is captured once at stage 2 (SI-3)", () => {
  it("SI-3: a caller mutating actor.id while an async policy runs does not change who the handler runs as", async () => {
    const cap = whoRan();
    const actor: Actor = { id: "dana", kind: "user" };
    const policySaw: string[] = [];
    const slow = definePolicy("slow", async (req) => {
      policySaw.push(req.actor.id);
      actor.id = "admin";
      await new Promise((r) => setTimeout(r, 5));
      return allow();
    });
    const { runtime, events } = build({ defs: { op: cap.procedure }, policies: [slow] });
    expect((await runtime.invoke("op", undefined, { actor, context: {} })).status).toBe("completed");
    expect(policySaw).toEqual(["dana"]);
    expect(cap.ranAs).toEqual(["dana"]);
    expect(new Set(events.map((e) => e.actor.id))).toEqual(new Set(["dana"]));
  });

  it("SI-3: an actor whose id getter answers differently on each read is read once", async () => {
    const cap = whoRan();
    let reads = 0;
    const actor = {
      get id() {
        return ++reads === 1 ? "dana" : "admin";
      },
      kind: "user" as const,
    };
    const { runtime, events } = build({ defs: { op: cap.procedure }, policies: [definePolicy("look", () => allow())] });
    expect((await runtime.invoke("op", undefined, { actor, context: {} })).status).toBe("completed");
    expect(cap.ranAs).toEqual(["dana"]);
    expect(new Set(events.map((e) => e.actor.id))).toEqual(new Set(["dana"]));
  });

  it("SI-3: mutating the actor's attributes after the call started does not reach the handler", async () => {
    const seen: unknown[] = [];
    const procedure = base.meta({ agent: meta() }).handler(({ context }) => (seen.push(context.agent!.actor.attributes), "done"));
    const actor: Actor = { id: "dana", kind: "user", attributes: { role: "support" } };
    const slow = definePolicy("slow", async () => {
      actor.attributes!.role = "cfo";
      return allow();
    });
    const { runtime } = build({ defs: { op: procedure }, policies: [slow] });
    expect((await runtime.invoke("op", undefined, { actor, context: {} })).status).toBe("completed");
    expect(seen).toEqual([{ role: "support" }]);
  });
});

describe("unpinnable actors (SI-3)", () => {
  it("SI-3: actor attributes that are a Proxy are refused as UNAUTHENTICATED, never read again later", async () => {
    const cap = whoRan();
    const attributes = new Proxy({ role: "support" }, {});
    const { runtime } = build({ defs: { op: cap.procedure } });
    const result = await runtime.invoke("op", undefined, { actor: { id: "dana", kind: "user", attributes }, context: {} });
    expect(result).toMatchObject({ status: "failed", error: { code: "UNAUTHENTICATED" } });
    expect(cap.ranAs).toEqual([]);
  });
});
