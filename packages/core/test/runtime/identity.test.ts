import { z } from "zod";
import { describe, expect, it } from "vitest";
import { agentMeta, definePolicy, type Actor, type AgentInvocationInfo, type PolicyRequest } from "../../src/index.js";
import { base, build, counted, dana, errorOf, meta } from "./pipeline-harness.js";

function impersonationTarget() {
  const seen: { agent?: AgentInvocationInfo; input?: unknown } = {};
  const procedure = base
    .input(z.object({ note: z.string(), actor: z.unknown(), role: z.string(), userId: z.string() }))
    .meta(agentMeta(meta()))
    .handler(({ input, context }) => {
      seen.agent = context.agent;
      seen.input = input;
      return "ok";
    });
  return { procedure, seen };
}

const MALFORMED_ACTORS: unknown[] = [
  undefined,
  null,
  "dana",
  {},
  { id: "", kind: "user" },
  { id: 7, kind: "user" },
  { id: "dana" },
  { id: "dana", kind: "robot" },
];

describe("invoke: the actor comes from options, never from input (SI-3)", () => {
  it("SI-3: input fields actor, role and userId change neither ctx.agent.actor, the policy actor nor the audit actor", async () => {
    const target = impersonationTarget();
    const policyActors: Actor[] = [];
    const spy = definePolicy("spy", (req: PolicyRequest) => {
      policyActors.push(req.actor);
      return { type: "allow" };
    });
    const { runtime, events } = build({ defs: { notes: { add: target.procedure } }, policies: [spy] });
    const forged = { id: "root", kind: "service" };
    const input = { note: "hi", actor: forged, role: "admin", userId: "root" };

    const result = await runtime.invoke("notes.add", input, { actor: dana, context: {}, surface: "aiSdk" });

    expect(result.status).toBe("completed");
    expect(target.seen.agent?.actor).toEqual(dana);
    expect(target.seen.input).toMatchObject({ actor: forged, role: "admin", userId: "root" }); // input is just data
    expect(policyActors).toEqual([dana]);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.actor).toEqual({ id: "dana", kind: "user" });
  });

  it("SI-3: a missing or malformed actor is an UNAUTHENTICATED envelope from invoke, not a throw, and the procedure never runs", async () => {
    const target = counted();
    const { runtime, ofType } = build({ defs: { op: target.procedure } });
    for (const actor of MALFORMED_ACTORS) {
      const result = await runtime.invoke("op", undefined, { actor: actor as Actor, context: {} });
      const error = errorOf(result);
      expect(result.status).toBe("failed");
      expect(error.code).toBe("UNAUTHENTICATED");
      expect(error.stage).toBe("authentication");
      expect(error.publicMessage).toBe("Authentication is required.");
    }
    expect(target.calls.count).toBe(0);
    const failed = ofType("capability.failed");
    expect(failed.map((e) => e.data.code)).toEqual(MALFORMED_ACTORS.map(() => "UNAUTHENTICATED"));
    // Evidence never invents an identity: a malformed actor is recorded as anonymous.
    for (const event of failed) expect(event.actor.kind).toBe("anonymous");
  });

  it("SI-3 (§15 item 3): a missing actor is a TypeError from describe, unlike invoke", async () => {
    const { runtime } = build({ defs: { op: counted().procedure } });
    for (const actor of MALFORMED_ACTORS) {
      await expect(runtime.describe("direct", { actor: actor as Actor, context: {} })).rejects.toBeInstanceOf(TypeError);
    }
    await expect(runtime.describe("direct", { context: {} } as never)).rejects.toBeInstanceOf(TypeError);
  });

  it("SI-3: an explicit anonymous actor proceeds and is who the procedure sees", async () => {
    const target = impersonationTarget();
    const { runtime, ofType } = build({ defs: { notes: { add: target.procedure } } });
    const anonymous: Actor = { id: "visitor-1", kind: "anonymous" };
    const result = await runtime.invoke("notes.add", { note: "x", actor: null, role: "r", userId: "u" }, { actor: anonymous, context: {} });
    expect(result.status).toBe("completed");
    expect(target.seen.agent?.actor).toEqual(anonymous);
    expect(ofType("capability.completed")[0]?.actor).toEqual({ id: "visitor-1", kind: "anonymous" });
    expect(await runtime.describe("direct", { actor: anonymous, context: {} })).toHaveLength(1);
  });

  it("SI-3 (§15 item 3): bad input with no actor fails INPUT_INVALID, because stage 5 precedes stage 6", async () => {
    const target = impersonationTarget();
    const { runtime, ofType } = build({ defs: { notes: { add: target.procedure } } });
    const result = await runtime.invoke("notes.add", { note: 42 }, { actor: undefined as never, context: {} });
    expect(errorOf(result).code).toBe("INPUT_INVALID");
    expect(ofType("capability.failed").map((e) => e.data.code)).toEqual(["INPUT_INVALID"]);

    // With valid input the same missing actor is what fails.
    const next = await runtime.invoke("notes.add", { note: "x", actor: null, role: "r", userId: "u" }, { actor: undefined as never, context: {} });
    expect(errorOf(next).code).toBe("UNAUTHENTICATED");
    expect(target.seen.agent).toBeUndefined();
  });

  it("SI-3: a malformed actor never reaches a policy", async () => {
    let evaluated = 0;
    const watch = definePolicy("watch", () => {
      evaluated++;
      return { type: "allow" };
    });
    const { runtime } = build({ defs: { op: counted().procedure }, policies: [watch] });
    const result = await runtime.invoke("op", undefined, { actor: { id: "x", kind: "admin" } as never, context: {} });
    expect(errorOf(result).code).toBe("UNAUTHENTICATED");
    expect(evaluated).toBe(0);
  });
});
