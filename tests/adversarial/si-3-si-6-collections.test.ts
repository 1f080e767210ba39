// SI-3 / SI-6: collections (Map, Set, typed arrays) in the validated input or the actor's attributes are pinned at
// capture like plain objects: a caller mutating its own collection while a policy awaits changes nothing that runs.
import { allow, createInMemoryApprovalCoordinator, definePolicy, type Actor } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "./support/startup-warnings.js";
import { z } from "zod";
import { approvalOf, base, build, dana, meta, mo } from "./support/runtime.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W2"]);

describe("collections are pinned at capture (SI-3, SI-6)", () => {
  it("SI-3: a Set of roles in actor.attributes mutated during an async policy does not reach the handler", async () => {
    const roles = new Set(["support"]);
    const seen: string[][] = [];
    const procedure = base.meta({ agent: meta() }).handler(({ context }) => {
      seen.push([...(context.agent!.actor.attributes!.roles as Set<string>)]);
      return "done";
    });
    const slow = definePolicy("slow", async () => {
      roles.add("admin");
      await new Promise((r) => setTimeout(r, 2));
      return allow();
    });
    const { runtime } = build({ defs: { op: procedure }, policies: [slow] });
    const actor: Actor = { id: "dana", kind: "user", attributes: { roles } };
    expect((await runtime.invoke("op", undefined, { actor, context: {} })).status).toBe("completed");
    expect(seen).toEqual([["support"]]);
  });

  it("SI-3: a Map in actor.attributes is copied, and the copy refuses writes", async () => {
    const limits = new Map([["refund", 100]]);
    let pinned: Map<string, number> | undefined;
    const procedure = base.meta({ agent: meta() }).handler(({ context }) => {
      pinned = context.agent!.actor.attributes!.limits as Map<string, number>;
      return "done";
    });
    const slow = definePolicy("slow", async () => {
      limits.set("refund", 1_000_000);
      return allow();
    });
    const { runtime } = build({ defs: { op: procedure }, policies: [slow] });
    await runtime.invoke("op", undefined, { actor: { id: "dana", kind: "user", attributes: { limits } }, context: {} });
    expect(pinned!.get("refund")).toBe(100);
    expect(() => pinned!.set("refund", 5)).toThrow(TypeError);
  });

  it("SI-6: a Map produced by the schema is the same frozen value for the policy and the handler", async () => {
    const seen: unknown[] = [];
    const procedure = base
      .meta({ agent: meta() })
      .input(z.object({ lines: z.array(z.tuple([z.string(), z.number()])).transform((l) => new Map(l)) }))
      .handler(({ input }) => {
        seen.push([...input.lines]);
        return "done";
      });
    const meddler = definePolicy("meddler", (req) => {
      const lines = (req.input as { lines: Map<string, number> }).lines;
      expect(() => lines.set("sku-1", 1_000)).toThrow(TypeError);
      expect(() => lines.delete("sku-1")).toThrow(TypeError);
      expect(() => lines.clear()).toThrow(TypeError);
      return allow();
    });
    const { runtime } = build({ defs: { op: procedure }, policies: [meddler] });
    const result = await runtime.invoke("op", { lines: [["sku-1", 2]] }, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    expect(seen).toEqual([[["sku-1", 2]]]);
  });

  it("SI-6: a Uint8Array in the validated input is copied: the caller's later writes do not reach the handler", async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const seen: number[][] = [];
    const procedure = base
      .meta({ agent: meta({ expose: { direct: true } }) })
      .input(z.object({ blob: z.instanceof(Uint8Array) }))
      .handler(({ input }) => {
        seen.push([...input.blob]);
        return "done";
      });
    const slow = definePolicy("slow", async () => {
      bytes[0] = 99;
      return allow();
    });
    const { runtime } = build({ defs: { op: procedure }, policies: [slow] });
    expect((await runtime.invoke("op", { blob: bytes }, { actor: dana, context: {} })).status).toBe("completed");
    expect(seen).toEqual([[1, 2, 3]]);
  });
});

describe("the actor a matched resume guard supplies is pinned too (SI-3)", () => {
  it("SI-3: expectedActor attributes mutated while a resume-time policy awaits do not reach the handler", async () => {
    const seen: unknown[] = [];
    const procedure = base.meta({ agent: meta({ approval: { required: true } }) }).input(z.object({})).handler(({ context }) => {
      seen.push(structuredClone(context.agent!.actor.attributes));
      return "done";
    });
    const guard: Actor = { id: "dana", kind: "user", attributes: { tier: "basic", tags: ["a"] } };
    const slow = definePolicy("slow", async () => {
      (guard.attributes as { tier: string }).tier = "platinum";
      (guard.attributes!.tags as string[]).push("b");
      return allow();
    });
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime } = build({ defs: { op: procedure }, policies: [slow], approvals: { coordinator } });
    const approval = approvalOf(await runtime.invoke("op", {}, { actor: dana, context: {} }));
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    guard.attributes = { tier: "basic", tags: ["a"] };
    const result = await runtime.resume(approval.id, { context: {}, expectedActor: guard });
    expect(result.status).toBe("completed");
    expect(seen).toEqual([{ tier: "basic", tags: ["a"] }]);
  });

  it("SI-3: an expectedActor whose attributes are a Proxy is refused as UNAUTHENTICATED on resume", async () => {
    const ran: string[] = [];
    const procedure = base.meta({ agent: meta({ approval: { required: true } }) }).input(z.object({})).handler(() => (ran.push("x"), "done"));
    const coordinator = createInMemoryApprovalCoordinator();
    const { runtime } = build({ defs: { op: procedure }, approvals: { coordinator } });
    const approval = approvalOf(await runtime.invoke("op", {}, { actor: dana, context: {} }));
    await coordinator.decide(approval.id, { status: "approved", approver: mo });
    const guard = { id: "dana", kind: "user" as const, attributes: new Proxy({ tier: "basic" }, {}) };
    const result = await runtime.resume(approval.id, { context: {}, expectedActor: guard });
    expect(result).toMatchObject({ status: "failed", error: { code: "UNAUTHENTICATED" } });
    expect(ran).toEqual([]);
  });
});
