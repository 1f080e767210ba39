import { ORPCError } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { agentMeta, allow, definePolicy, deny, hide } from "../../src/index.js";
import { base, build, counted, dana, errorOf, meta, priya } from "./pipeline-harness.js";

describe("invoke re-checks everything discovery showed (SI-2)", () => {
  it("SI-2: a capability hidden at discovery is still concealed at invoke when the policy also applies at invocation", async () => {
    const secret = counted();
    const hideFromDana = definePolicy("hide-from-dana", (req) => (req.actor.id === "dana" ? hide() : allow()), {
      phases: ["discovery", "invocation"],
      scope: { capabilities: { ids: ["secret"] } },
    });
    const { runtime, ofType } = build({ defs: { open: counted().procedure, secret: secret.procedure }, policies: [hideFromDana] });

    expect((await runtime.describe("aiSdk", { actor: dana, context: {} })).map((d) => d.id)).toEqual(["open"]);
    expect((await runtime.describe("aiSdk", { actor: priya, context: {} })).map((d) => d.id)).toEqual(["open", "secret"]);

    const error = errorOf(await runtime.invoke("secret", undefined, { actor: dana, context: {}, surface: "aiSdk" }));
    expect(error.code).toBe("CAPABILITY_NOT_FOUND");
    expect(secret.calls.count).toBe(0);
    expect(ofType("capability.denied").map((e) => e.data)).toEqual([
      { reason: "hidden", publicCode: "CAPABILITY_NOT_FOUND", policyDecisions: [{ policy: "hide-from-dana", type: "hide" }] },
    ]);
  });

  it("SI-2: a capability excluded by the preceding scoped describe invokes successfully (scope is never authority)", async () => {
    const refund = counted({ tags: ["billing"] });
    const { runtime } = build({ defs: { orders: { get: counted({ tags: ["orders"] }).procedure, refund: refund.procedure } } });

    const narrowed = await runtime.describe("aiSdk", { actor: dana, context: {}, scope: { tags: ["orders"] } });
    expect(narrowed.map((d) => d.id)).toEqual(["orders.get"]);

    const result = await runtime.invoke("orders.refund", undefined, { actor: dana, context: {}, surface: "aiSdk" });
    expect(result).toMatchObject({ status: "completed", output: "ok" });
    expect(refund.calls.count).toBe(1);
  });

  it("SI-2: a policy that flips to deny after describe denies the invoke", async () => {
    const state = { open: true };
    const target = counted();
    const switchable = definePolicy("switch", () => (state.open ? allow() : deny("CLOSED", "The shop is closed.")), {
      phases: ["discovery", "invocation"],
    });
    const { runtime } = build({ defs: { op: target.procedure }, policies: [switchable] });

    expect((await runtime.describe("aiSdk", { actor: dana, context: {} })).map((d) => d.id)).toEqual(["op"]);
    state.open = false;

    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {}, surface: "aiSdk" }));
    expect(error).toMatchObject({ code: "POLICY_DENIED", publicMessage: "The shop is closed.", details: { policy: "switch", code: "CLOSED" } });
    expect(target.calls.count).toBe(0);
  });

  it("SI-2: an oRPC middleware throwing ORPCError FORBIDDEN runs on the agent path and yields FORBIDDEN", async () => {
    let handlerRan = false;
    const seenByMiddleware: unknown[] = [];
    const guarded = base
      .use(({ context, next }) => {
        seenByMiddleware.push(context.agent?.actor.id);
        if (context.agent?.actor.id !== "priya") throw new ORPCError("FORBIDDEN", { message: "Only Priya may do this." });
        return next();
      })
      .meta(agentMeta(meta()))
      .handler(() => {
        handlerRan = true;
        return "done";
      });
    const { runtime, ofType } = build({ defs: { guarded } });

    const result = await runtime.invoke("guarded", undefined, { actor: dana, context: {}, surface: "aiSdk" });
    const error = errorOf(result);
    expect(error).toMatchObject({ code: "FORBIDDEN", stage: "authorization", publicMessage: "Only Priya may do this.", exposeToModel: true });
    expect(error.cause).toBeInstanceOf(ORPCError);
    expect(handlerRan).toBe(false);
    expect(ofType("capability.failed").map((e) => e.data.code)).toEqual(["FORBIDDEN"]);

    expect(await runtime.invoke("guarded", undefined, { actor: priya, context: {}, surface: "aiSdk" })).toMatchObject({ status: "completed", output: "done" });
    expect(seenByMiddleware).toEqual(["dana", "priya"]);
  });

  it("SI-2: discovery-only policies do not run at invoke, invocation-only policies do not run at describe", async () => {
    const phases: string[] = [];
    const discoveryOnly = definePolicy("discovery-only", (req) => {
      phases.push(`d:${req.phase}`);
      return hide();
    }, { phases: ["discovery"] });
    const invocationOnly = definePolicy("invocation-only", (req) => {
      phases.push(`i:${req.phase}`);
      return deny();
    });
    const { runtime } = build({ defs: { op: counted().procedure }, policies: [discoveryOnly, invocationOnly] });
    expect(await runtime.describe("aiSdk", { actor: dana, context: {} })).toEqual([]);
    expect(errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} })).code).toBe("POLICY_DENIED");
    expect(phases).toEqual(["d:discovery", "i:invocation"]);
  });
});
