import { z } from "zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentMeta, allow, CapabilityError, definePolicy, deny, hide, requireApproval, type Actor, type PolicyDecision } from "../../src/index.js";
import { toJsonSchema } from "../../src/schema/index.js";
import { base, build, counted, dana, delay, meta } from "./pipeline-harness.js";

const ids = (descriptors: { id: string }[]) => descriptors.map((d) => d.id);
const opts = (scope?: { ids?: string[]; tags?: string[] }) => (scope === undefined ? { actor: dana, context: {} } : { actor: dana, context: {}, scope });

/** A catalogue for the scope tests: registry order a, b, c, d, e. */
function catalogue() {
  return build({
    defs: {
      a: counted({ tags: ["orders"] }).procedure,
      b: counted({ tags: ["billing", "orders"] }).procedure,
      c: counted({ tags: ["billing"] }).procedure,
      d: counted().procedure, // untagged
      e: counted({ tags: ["support"] }).procedure,
    },
  });
}

// Sibling lanes must never leave an unhandled rejection behind (docs/architecture/spec/core.md#core-8 step 3).
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

describe("describe: exposure and descriptors (core.md §8)", () => {
  it("returns only capabilities exposed === true on the surface, with their public descriptor fields", async () => {
    const { runtime } = build({
      defs: {
        orders: {
          get: base
            .input(z.object({ id: z.string() }))
            .meta(agentMeta(meta({ description: "Read an order.", expose: { aiSdk: true, mcp: true }, tags: ["orders"], risk: "medium" })))
            .handler(() => "x"),
          cancel: counted({ expose: { mcp: true }, sideEffect: "write" }).procedure,
          internal: counted({ expose: { direct: true, aiSdk: false } }).procedure,
        },
      },
    });
    const aiSdk = await runtime.describe("aiSdk", opts());
    expect(aiSdk).toEqual([
      {
        id: "orders.get",
        description: "Read an order.",
        inputSchema: toJsonSchema(z.object({ id: z.string() })),
        sideEffect: "read",
        risk: "medium",
        tags: ["orders"],
      },
    ]);
    expect(ids(await runtime.describe("mcp", opts()))).toEqual(["orders.get", "orders.cancel"]);
    expect(ids(await runtime.describe("direct", opts()))).toEqual(["orders.internal"]);
    expect(await runtime.describe("workflow", opts())).toEqual([]);
  });

  it("gives { type: \"object\" } as inputSchema to a capability without an input schema", async () => {
    const { runtime } = build({ defs: { ping: counted().procedure } });
    const [first] = await runtime.describe("aiSdk", opts());
    expect(first?.inputSchema).toEqual({ type: "object" });
    first!.inputSchema.properties = { injected: true };
    const [second] = await runtime.describe("aiSdk", opts());
    expect(second?.inputSchema).toEqual({ type: "object" });
  });

  it("isolates descriptors: mutating a returned inputSchema or tags never affects the next describe", async () => {
    const schema = z.object({ id: z.string(), lines: z.array(z.object({ sku: z.string() })) });
    const { runtime } = build({ defs: { order: base.input(schema).meta(agentMeta(meta({ tags: ["t"] }))).handler(() => "x") } });
    const [first] = await runtime.describe("aiSdk", opts());
    const pristine = JSON.parse(JSON.stringify(first));
    const props = first!.inputSchema.properties as Record<string, Record<string, unknown>>;
    props.id!.type = "number";
    (props.lines!.items as Record<string, unknown>).injected = "yes";
    (first!.inputSchema.required as string[]).push("evil");
    first!.tags.push("mutated");

    const [second] = await runtime.describe("aiSdk", opts());
    expect(second).toEqual(pristine);
    expect(second!.inputSchema).not.toBe(first!.inputSchema);
    expect(toJsonSchema(schema)).toEqual(pristine.inputSchema);
    expect(runtime.registry.get("order")!.meta.tags).toEqual(["t"]);
  });

  describe('inputSchemas: "shared"', () => {
    const schema = z.object({ id: z.string(), lines: z.array(z.object({ sku: z.string() })) });
    const app = () => build({ defs: { order: base.input(schema).meta(agentMeta(meta({ tags: ["t"] }))).handler(() => "x"), ping: counted().procedure } });

    it("gives the same deep-frozen tree on every call and to every actor, equal to the copy", async () => {
      const { runtime } = app();
      const copied = await runtime.describe("aiSdk", opts());
      const first = await runtime.describe("aiSdk", { ...opts(), inputSchemas: "shared" });
      const second = await runtime.describe("aiSdk", { actor: { id: "u_other", kind: "user" }, context: {}, inputSchemas: "shared" });
      expect(first).toEqual(copied);
      for (let i = 0; i < first.length; i++) {
        expect(second[i]!.inputSchema).toBe(first[i]!.inputSchema);
        // Only the schema is shared: each call still gets its own descriptors and tags.
        expect(second[i]).not.toBe(first[i]);
        expect(second[i]!.tags).not.toBe(first[i]!.tags);
      }
      const tree = first[0]!.inputSchema as { properties: { lines: { items: { properties: object } } }; required: string[] };
      for (const node of [tree, tree.properties, tree.properties.lines.items.properties, tree.required]) expect(Object.isFrozen(node)).toBe(true);
      expect(Object.isFrozen(first[1]!.inputSchema)).toBe(true);
    });

    it("refuses writes, so neither the memoized conversion nor the next caller can be changed through it", async () => {
      const { runtime } = app();
      const [shared] = await runtime.describe("aiSdk", { ...opts(), inputSchemas: "shared" });
      const pristine = JSON.parse(JSON.stringify(shared!.inputSchema));
      expect(() => {
        (shared!.inputSchema.required as string[]).push("evil");
      }).toThrow(TypeError);
      expect(() => {
        shared!.inputSchema.injected = true;
      }).toThrow(TypeError);
      // The conversion `toJsonSchema` hands out is not the shared tree, and stays writable for its own callers.
      expect(toJsonSchema(schema)).not.toBe(shared!.inputSchema);
      expect(Object.isFrozen(toJsonSchema(schema))).toBe(false);
      const [copy] = await runtime.describe("aiSdk", { ...opts(), inputSchemas: "copy" });
      expect(copy!.inputSchema).toEqual(pristine);
      expect(Object.isFrozen(copy!.inputSchema)).toBe(false);
    });
  });

  it("marks requiresApproval from meta.approval.required and from a discovery require-approval, and omits it otherwise", async () => {
    const { runtime } = build({
      defs: {
        gated: counted({ approval: { required: true } }).procedure,
        asked: counted().procedure,
        plain: counted().procedure,
        notRequired: counted({ approval: { required: false } }).procedure,
      },
      policies: [definePolicy("ask", () => requireApproval({ reason: "Looks risky." }), { phases: ["discovery"], scope: { capabilities: { ids: ["asked"] } } })],
      approvals: { handler: async () => undefined },
    });
    const descriptors = await runtime.describe("aiSdk", opts());
    expect(descriptors.map((d) => [d.id, d.requiresApproval])).toEqual([
      ["gated", true],
      ["asked", true],
      ["plain", undefined],
      ["notRequired", undefined],
    ]);
    expect("requiresApproval" in descriptors[2]!).toBe(false);
    expect("requiresApproval" in descriptors[3]!).toBe(false);
  });

  it("sets contextual: true exactly for discovery: \"contextual\", and contextual capabilities still invoke", async () => {
    const contextual = counted({ discovery: "contextual" });
    const { runtime } = build({
      defs: { inline: contextual.procedure, listed: counted({ discovery: "discoverable" }).procedure, plain: counted().procedure },
    });
    const descriptors = await runtime.describe("aiSdk", opts());
    expect(descriptors.map((d) => [d.id, d.contextual])).toEqual([
      ["inline", true],
      ["listed", undefined],
      ["plain", undefined],
    ]);
    expect("contextual" in descriptors[1]!).toBe(false);
    expect("contextual" in descriptors[2]!).toBe(false);
    expect(await runtime.invoke("inline", undefined, { actor: dana, context: {}, surface: "aiSdk" })).toMatchObject({ status: "completed" });
    expect(contextual.calls.count).toBe(1);
  });
});

describe("describe: scope (core.md §8 step 2, §15 item 2)", () => {
  const cases: [string, { ids?: string[]; tags?: string[] } | undefined, string[]][] = [
    ["absent scope does not narrow", undefined, ["a", "b", "c", "d", "e"]],
    ["{} does not narrow", {}, ["a", "b", "c", "d", "e"]],
    ["keys set to undefined do not narrow", { ids: undefined, tags: undefined } as never, ["a", "b", "c", "d", "e"]],
    ["ids match exactly", { ids: ["c", "a"] }, ["a", "c"]],
    ["ids never match by prefix or case", { ids: ["A", "", "b.", "x"] }, []],
    ["tags match any", { tags: ["billing", "nope"] }, ["b", "c"]],
    ["untagged matches no tag selector", { tags: ["orders", "support"] }, ["a", "b", "e"]],
    ["both keys give the union", { ids: ["d"], tags: ["support"] }, ["d", "e"]],
    ["union keeps registry order and no duplicates", { ids: ["e", "b"], tags: ["orders"] }, ["a", "b", "e"]],
    ["ids: [] matches nothing", { ids: [] }, []],
    ["tags: [] matches nothing", { tags: [] }, []],
    ["both empty match nothing", { ids: [], tags: [] }, []],
    ["an empty ids list does not swallow the tags", { ids: [], tags: ["billing"] }, ["b", "c"]],
  ];
  for (const [label, scope, expected] of cases) {
    it(`${label}`, async () => {
      const { runtime } = catalogue();
      expect(ids(await runtime.describe("aiSdk", opts(scope)))).toEqual(expected);
    });
  }

  it("narrows before any policy: scoped-out capabilities' discovery policies are not called", async () => {
    const evaluated: string[] = [];
    const watch = definePolicy("watch", (req) => {
      evaluated.push(req.capability.id);
      return allow();
    }, { phases: ["discovery"] });
    const { runtime } = build({ defs: { a: counted().procedure, b: counted().procedure, c: counted({ expose: { direct: true } }).procedure }, policies: [watch] });
    expect(ids(await runtime.describe("aiSdk", opts({ ids: ["b", "c"] })))).toEqual(["b"]);
    expect(evaluated).toEqual(["b"]);
  });
});

describe("describe: discovery policies (core.md §8 step 3)", () => {
  it("passes phase discovery, the surface, the actor, the context and no input to the policy", async () => {
    const requests: unknown[] = [];
    const context = { tenant: "t1" };
    const look = definePolicy("look", (req) => {
      requests.push(req);
      return allow();
    }, { phases: ["discovery"] });
    const { runtime } = build({ defs: { a: counted().procedure }, policies: [look] });
    await runtime.describe("aiSdk", { actor: dana, context });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ phase: "discovery", surface: "aiSdk", actor: dana, context, capability: { id: "a" } });
    expect((requests[0] as { input?: unknown }).input).toBeUndefined();
  });

  it("excludes a capability whose discovery batch errors, denies or hides", async () => {
    const verdict: Record<string, () => PolicyDecision | Promise<PolicyDecision>> = {
      denied: () => deny(),
      hidden: () => hide(),
      thrown: () => {
        throw new Error("x");
      },
      garbage: () => ({ type: "maybe" }) as never,
      allowed: () => allow(),
    };
    const judge = definePolicy("judge", (req) => verdict[req.capability.id]!(), { phases: ["discovery"] });
    const { runtime } = build({ defs: Object.fromEntries(Object.keys(verdict).map((id) => [id, counted().procedure])), policies: [judge] });
    expect(ids(await runtime.describe("aiSdk", opts()))).toEqual(["allowed"]);
  });

  it("SI-7: a failing discovery policy excludes only its capability, under concurrency", async () => {
    const delays: Record<string, number> = { c1: 30, c2: 5, c3: 20, c4: 1, c5: 12, c6: 8 };
    let inFlight = 0;
    let peak = 0;
    const slow = definePolicy("slow", async (req) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        await delay(delays[req.capability.id]!);
        if (req.capability.id === "c3") throw new Error("c3 policy broke");
        if (req.capability.id === "c5") return undefined as never;
        return allow();
      } finally {
        inFlight--;
      }
    }, { phases: ["discovery"] });
    const { runtime, ofType } = build({
      defs: Object.fromEntries(Object.keys(delays).map((id) => [id, counted().procedure])),
      policies: [slow],
      defaults: { policyConcurrency: 2 },
    });

    expect(ids(await runtime.describe("aiSdk", opts()))).toEqual(["c1", "c2", "c4", "c6"]);
    expect(peak).toBe(2);
    expect(ofType("capabilities.discovered").map((e) => e.data.count)).toEqual([4]);
    expect(unhandled).toEqual([]);
  });

  it("SI-7: a timed-out discovery policy excludes only its capability when the budget still has room", async () => {
    const stuck = definePolicy("stuck", (req) => (req.capability.id === "b" ? new Promise<PolicyDecision>(() => {}) : allow()), { phases: ["discovery"] });
    const { runtime } = build({ defs: { a: counted().procedure, b: counted().procedure, c: counted().procedure }, policies: [stuck], defaults: { policyTimeoutMs: 15 } });
    expect(ids(await runtime.describe("aiSdk", opts()))).toEqual(["a", "c"]);
  });

  it("returns descriptors in registry order whatever the completion order of async policies", async () => {
    const names = ["n1", "n2", "n3", "n4", "n5", "n6", "n7"];
    const finished: string[] = [];
    const reversed = definePolicy("reversed", async (req) => {
      await delay(2 + (names.length - names.indexOf(req.capability.id)) * 3);
      finished.push(req.capability.id);
      return req.capability.id === "n4" ? requireApproval({ reason: "Check." }) : allow();
    }, { phases: ["discovery"] });
    const { runtime } = build({
      defs: Object.fromEntries(names.map((id) => [id, counted().procedure])),
      policies: [reversed],
      defaults: { policyConcurrency: 4 },
    });
    const descriptors = await runtime.describe("aiSdk", opts());
    expect(ids(descriptors)).toEqual(names);
    expect(finished).not.toEqual(names); // completion order really differed
    expect(descriptors.filter((d) => d.requiresApproval).map((d) => d.id)).toEqual(["n4"]);
  });

  it("rejects with TIMEOUT at stage discovery when the budget expires: no short catalog, no event, no unhandled rejection", async () => {
    const policy = definePolicy("slow", async (req) => {
      if (req.capability.id === "quick") return allow();
      return new Promise<PolicyDecision>(() => {});
    }, { phases: ["discovery"] });
    const { runtime, ofType } = build({
      defs: { quick: counted().procedure, stuck1: counted().procedure, stuck2: counted().procedure, stuck3: counted().procedure },
      policies: [policy],
      defaults: { discoveryBudgetMs: 25, policyTimeoutMs: 5_000, policyConcurrency: 2 },
    });

    const outcome = await runtime.describe("aiSdk", opts()).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    expect("error" in outcome).toBe(true);
    const error = (outcome as { error: CapabilityError }).error;
    expect(error).toBeInstanceOf(CapabilityError);
    expect(error).toMatchObject({ code: "TIMEOUT", stage: "discovery" });
    expect(ofType("capabilities.discovered")).toEqual([]);
    await delay(30);
    expect(unhandled).toEqual([]);
  });

  it("rejects every time a lone pending batch is cut short by the budget (timer jitter never yields a short catalogue)", async () => {
    const stuck = definePolicy("stuck", (req) => (req.capability.id === "b" ? new Promise<PolicyDecision>(() => {}) : allow()), { phases: ["discovery"] });
    const { runtime, ofType } = build({
      defs: { a: counted().procedure, b: counted().procedure },
      policies: [stuck],
      defaults: { discoveryBudgetMs: 4, policyTimeoutMs: 5_000 },
    });
    const outcomes: string[] = [];
    for (let i = 0; i < 25; i++) {
      outcomes.push(await runtime.describe("aiSdk", opts()).then((d) => `short:${ids(d).join(",")}`, (e: CapabilityError) => `${e.code}@${e.stage}`));
    }
    expect(outcomes).toEqual(Array(25).fill("TIMEOUT@discovery"));
    expect(ofType("capabilities.discovered")).toEqual([]);
  });

  it("does not count the budget against candidates without discovery policies", async () => {
    const { runtime } = build({
      defs: { a: counted().procedure, b: counted().procedure },
      defaults: { discoveryBudgetMs: 1 },
    });
    expect(ids(await runtime.describe("aiSdk", opts()))).toEqual(["a", "b"]);
  });
});

describe("describe: programmer errors (TypeError)", () => {
  it("rejects an invalid surface", async () => {
    const { runtime } = catalogue();
    for (const surface of ["cli", "shell", "", undefined, null, 1]) {
      await expect(runtime.describe(surface as never, opts())).rejects.toBeInstanceOf(TypeError);
    }
  });

  it("rejects missing or non-object options", async () => {
    const { runtime } = catalogue();
    for (const options of [undefined, null, "dana", 5]) {
      await expect(runtime.describe("aiSdk", options as never)).rejects.toBeInstanceOf(TypeError);
    }
  });

  it("rejects a malformed actor", async () => {
    const { runtime } = catalogue();
    for (const actor of [undefined, null, {}, { id: "", kind: "user" }, { id: "x", kind: "admin" }, { kind: "user" }]) {
      await expect(runtime.describe("aiSdk", { actor: actor as Actor, context: {} })).rejects.toBeInstanceOf(TypeError);
    }
  });

  it("rejects a malformed scope", async () => {
    const { runtime } = catalogue();
    for (const scope of ["orders", null, [], { ids: "a" }, { tags: [1] }, { ids: [null] }, { foo: [] }, { tags: "billing" }]) {
      await expect(runtime.describe("aiSdk", { actor: dana, context: {}, scope: scope as never })).rejects.toBeInstanceOf(TypeError);
    }
  });

  it("emits no event and evaluates no policy when it rejects with a TypeError", async () => {
    let evaluated = 0;
    const { runtime, events } = build({
      defs: { a: counted().procedure },
      policies: [definePolicy("count", () => {
        evaluated++;
        return allow();
      }, { phases: ["discovery"] })],
    });
    await expect(runtime.describe("aiSdk", { actor: dana, context: {}, scope: { ids: "a" } as never })).rejects.toBeInstanceOf(TypeError);
    expect(events).toEqual([]);
    expect(evaluated).toBe(0);
  });
});

describe("describe: the capabilities.discovered event (core.md §11)", () => {
  function tagged() {
    return build({ defs: { a: counted({ tags: ["x"] }).procedure, b: counted({ tags: ["y"] }).procedure, c: counted({ tags: ["x"] }).procedure } });
  }

  it("fires once per successful describe with count, surface and a digest equal for equal catalogues only", async () => {
    const { runtime, ofType } = catalogue();
    await runtime.describe("aiSdk", opts({ ids: ["a", "b"] }));
    await runtime.describe("aiSdk", opts({ ids: ["b", "a"] }));
    await runtime.describe("aiSdk", opts({ tags: ["orders"] })); // also a, b
    await runtime.describe("aiSdk", opts({ ids: ["a", "c"] }));
    await runtime.describe("aiSdk", opts({ ids: [] }));
    const events = ofType("capabilities.discovered");
    expect(events.map((e) => [e.data.count, e.data.surface])).toEqual([
      [2, "aiSdk"],
      [2, "aiSdk"],
      [2, "aiSdk"],
      [2, "aiSdk"],
      [0, "aiSdk"],
    ]);
    const digests = events.map((e) => e.data.digest);
    expect(digests[1]).toBe(digests[0]);
    expect(digests[2]).toBe(digests[0]);
    expect(digests[3]).not.toBe(digests[0]);
    expect(digests[4]).not.toBe(digests[0]);
    for (const event of events) {
      expect(event.data.capabilityIds).toBeUndefined();
      expect("capabilityIds" in event.data).toBe(false);
      expect("executionId" in event).toBe(false);
      expect(event.actor).toEqual({ id: "dana", kind: "user" });
    }
  });

  it("gives separate runtimes over equal catalogues equal digests, and a different digest for a different catalogue", async () => {
    const one = tagged();
    const two = tagged();
    await one.runtime.describe("aiSdk", opts());
    await two.runtime.describe("aiSdk", opts());
    await two.runtime.describe("aiSdk", opts({ tags: ["x"] }));
    const [d1] = one.ofType("capabilities.discovered");
    const [d2, d3] = two.ofType("capabilities.discovered");
    expect(d1!.data.digest).toBe(d2!.data.digest);
    expect(d3!.data.digest).not.toBe(d1!.data.digest);
  });

  it("hashes the catalogue, not the registry order: the same ids in another order give the same digest", async () => {
    const forward = build({ defs: { a: counted().procedure, b: counted().procedure } });
    const backward = build({ defs: { b: counted().procedure, a: counted().procedure } });
    expect(ids(await forward.runtime.describe("aiSdk", opts()))).toEqual(["a", "b"]);
    expect(ids(await backward.runtime.describe("aiSdk", opts()))).toEqual(["b", "a"]);
    expect(forward.ofType("capabilities.discovered")[0]!.data.digest).toBe(backward.ofType("capabilities.discovered")[0]!.data.digest);
  });

  it("adds capabilityIds in registry order only with audit.verbose", async () => {
    const seen: unknown[] = [];
    const { runtime } = build({
      defs: { b: counted().procedure, a: counted().procedure, c: counted().procedure },
      audit: { sinks: [(e) => void seen.push(e)], verbose: true },
    });
    await runtime.describe("aiSdk", opts({ ids: ["c", "b"] }));
    expect(seen).toMatchObject([{ type: "capabilities.discovered", data: { count: 2, capabilityIds: ["b", "c"] } }]);
  });
});
