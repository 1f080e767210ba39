import { eventIterator, os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { agentMeta } from "../../src/capability/agent-meta.js";
import { agentProcedure } from "../../src/capability/agent-procedure.js";
import { procedureSchemas } from "../../src/orpc/procedure.js";
import { createCapabilityRegistry } from "../../src/registry/create-registry.js";
import { readCapabilityList } from "../../src/registry/registry-object.js";
import type { CapabilityDefs } from "../../src/registry/types.js";
import { buildError, buildProblems, plainProcedure, procedureWith, validAgent } from "./fixtures.js";

const ap = agentProcedure(os);
const refund = ap
  .input(z.object({ orderId: z.string() }))
  .output(z.object({ ok: z.boolean() }))
  .meta(agentMeta({ description: "Refund an order", expose: { aiSdk: true }, sideEffect: "write", risk: "high" }))
  .handler(() => ({ ok: true }));

describe("createCapabilityRegistry: walk and registry order", () => {
  it("ids are dot-joined paths in depth-first own-key order", () => {
    const registry = createCapabilityRegistry({
      b: procedureWith(validAgent),
      a: { z: procedureWith(validAgent), y: { deep: procedureWith(validAgent) } },
      c: procedureWith(validAgent),
    });
    expect(registry.ids()).toEqual(["b", "a.z", "a.y.deep", "c"]);
    expect(registry.capabilities().map((c) => c.id)).toEqual(["b", "a.z", "a.y.deep", "c"]);
    expect(registry.inspect().capabilities.map((c) => c.id)).toEqual(["b", "a.z", "a.y.deep", "c"]);
  });

  it("each capability carries its path, schemas and the procedure itself", () => {
    const capability = createCapabilityRegistry({ orders: { refund } }).get("orders.refund");
    expect(capability).toMatchObject({ id: "orders.refund", path: ["orders", "refund"] });
    expect(capability?.procedure).toBe(refund);
    expect(capability?.inputSchema).toBe(procedureSchemas(refund).inputSchema);
    expect(capability?.outputSchema).toBe(procedureSchemas(refund).outputSchema);
    expect(capability?.inputSchema).toBeDefined();
    expect(createCapabilityRegistry({ p: procedureWith(validAgent) }).get("p")?.inputSchema).toBeUndefined();
  });

  it("walks routers built with os.router and Object.create(null) branches", () => {
    const branch = Object.assign(Object.create(null) as object, { refund });
    const registry = createCapabilityRegistry({ ...os.router({ billing: { refund } }), plain: branch } as CapabilityDefs);
    expect(registry.ids()).toEqual(["billing.refund", "plain.refund"]);
  });

  it("the same procedure under two paths is two capabilities", () => {
    const registry = createCapabilityRegistry({ a: { refund }, b: { refund } });
    expect(registry.ids()).toEqual(["a.refund", "b.refund"]);
    expect(registry.get("a.refund")?.procedure).toBe(registry.get("b.refund")?.procedure);
  });

  it("get is an exact id lookup: unknown ids, prefixes and prototype keys are undefined", () => {
    const registry = createCapabilityRegistry({ orders: { refund } });
    expect(registry.get("orders.refund")?.id).toBe("orders.refund");
    for (const id of ["orders", "refund", "orders_refund", "__proto__", "toString", "constructor", ""]) {
      expect(registry.get(id)).toBeUndefined();
    }
  });

  it("an empty tree builds an empty registry", () => {
    const registry = createCapabilityRegistry({});
    expect(registry.ids()).toEqual([]);
    expect(registry.inspect()).toEqual({ capabilities: [], excluded: [], unexposed: [] });
  });
});

describe("createCapabilityRegistry: exclusion and exposure", () => {
  it("SI-1: a procedure without agent meta is excluded and listed", () => {
    const plain = plainProcedure();
    const registry = createCapabilityRegistry({ orders: { refund, internal: plain }, health: plain });
    expect(registry.ids()).toEqual(["orders.refund"]);
    expect(registry.get("orders.internal")).toBeUndefined();
    expect(registry.inspect().excluded).toEqual([
      { path: "orders.internal", reason: "no-agent-meta" },
      { path: "health", reason: "no-agent-meta" },
    ]);
  });

  it("SI-1: agent: undefined counts as no agent meta", () => {
    const registry = createCapabilityRegistry({ p: procedureWith(undefined) });
    expect(registry.ids()).toEqual([]);
    expect(registry.inspect().excluded).toEqual([{ path: "p", reason: "no-agent-meta" }]);
  });

  it("SI-1: expose: {} is registered but listed in inspect().unexposed", () => {
    const registry = createCapabilityRegistry({
      nowhere: procedureWith({ ...validAgent, expose: {} }),
      allFalse: procedureWith({ ...validAgent, expose: { aiSdk: false, mcp: false, direct: false } }),
      directOnly: procedureWith({ ...validAgent, expose: { direct: true } }),
      model: procedureWith(validAgent),
    });
    expect(registry.ids()).toEqual(["nowhere", "allFalse", "directOnly", "model"]);
    expect(registry.inspect().unexposed).toEqual(["nowhere", "allFalse"]);
    expect(registry.filter({ surface: "direct" }).ids()).toEqual(["directOnly"]);
  });
});

describe("createCapabilityRegistry: rejected entries", () => {
  it("a lazy procedure is a problem telling to resolve it first", () => {
    const lazyRefund = os.lazy(() => Promise.resolve({ default: refund }));
    const problems = buildProblems({ orders: { refund: lazyRefund } });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^orders\.refund: is a lazy router or procedure; resolve it first/);
    expect(problems[0]).toContain("unlazyRouter");
  });

  it("a lazy router (os.lazy) is a problem naming its path", () => {
    const billing = os.lazy(() => Promise.resolve({ default: { refund } }));
    expect(buildProblems({ billing })).toEqual([expect.stringMatching(/^billing: is a lazy router .*unlazyRouter/)]);
  });

  it("a lazy root is a problem", () => {
    const root = os.lazy(() => Promise.resolve({ default: { refund } }));
    expect(buildProblems(root)).toEqual([expect.stringMatching(/^\(root\): is a lazy router .*unlazyRouter/)]);
  });

  it("an event-iterator output schema makes a streaming capability (amended core.md §2.1)", () => {
    const stream = ap
      .output(eventIterator(z.object({ tick: z.number() })))
      .meta(agentMeta({ ...validAgent, sideEffect: "read", risk: "low" } as never))
      .handler(async function* () {
        yield { tick: 1 };
      });
    expect(createCapabilityRegistry({ live: { ticks: stream } }).ids()).toEqual(["live.ticks"]);
  });

  it("an event-iterator input schema is a problem, with or without a streaming output", () => {
    const upload = ap
      .input(eventIterator(z.string()))
      .meta(agentMeta({ ...validAgent, expose: { direct: true } } as never))
      .handler(() => "done");
    const duplex = ap
      .input(eventIterator(z.string()))
      .output(eventIterator(z.string()))
      .meta(agentMeta({ ...validAgent, expose: { direct: true } } as never))
      .handler(async function* () {
        yield "x";
      });
    expect(buildProblems({ upload, duplex })).toEqual([
      "upload: input schema is an event iterator; a capability's input cannot stream (only its output may)",
      "duplex: input schema is an event iterator; a capability's input cannot stream (only its output may)",
    ]);
  });

  it("meta.stream on a capability that does not stream is a problem", () => {
    const plain = ap.meta(agentMeta({ ...validAgent, stream: { maxEvents: 5 } } as never)).handler(() => "done");
    expect(buildProblems({ plain })).toEqual(["plain: meta.stream applies to streaming capabilities only (an output declared with eventIterator(...))"]);
  });

  it("an event-iterator procedure without agent meta is simply excluded", () => {
    const stream = os.output(eventIterator(z.number())).handler(async function* () {
      yield 1;
    });
    expect(createCapabilityRegistry({ stream }).inspect().excluded).toEqual([{ path: "stream", reason: "no-agent-meta" }]);
  });

  it("objects with \"~orpc\" that are builders or fakes, with no handler, are problems", () => {
    const problems = buildProblems({
      builder: os,
      unfinished: os.input(z.string()).meta({ agent: validAgent } as never),
      fake: { "~orpc": { meta: { agent: validAgent } } },
    });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^builder: has "~orpc" but is not an implemented procedure/);
    expect(problems[1]).toMatch(/^unfinished: has "~orpc" but is not an implemented procedure/);
    expect(problems[2]).toMatch(/^fake: has "~orpc" but is not an implemented procedure/);
  });

  it("anything that is neither a procedure nor a plain object is a problem", () => {
    class Router {
      refund = refund;
    }
    expect(
      buildProblems({ n: 1, s: "x", nil: null, u: undefined, fn: () => 1, arr: [refund], date: new Date(0), inst: new Router() }),
    ).toEqual([
      "n: expected an oRPC procedure or a plain object of procedures, got 1",
      's: expected an oRPC procedure or a plain object of procedures, got "x"',
      "nil: expected an oRPC procedure or a plain object of procedures, got null",
      "u: expected an oRPC procedure or a plain object of procedures, got undefined",
      "fn: expected an oRPC procedure or a plain object of procedures, got a function",
      "arr: expected an oRPC procedure or a plain object of procedures, got an array",
      "date: expected an oRPC procedure or a plain object of procedures, got an object",
      "inst: expected an oRPC procedure or a plain object of procedures, got an object",
    ]);
  });

  it("an empty segment or one containing \".\" is a problem", () => {
    expect(buildProblems({ "": refund, orders: { "re.fund": refund, "": { refund } } })).toEqual([
      '(root): segment "" is invalid; segments must be non-empty and must not contain "." (ids are dot-joined paths)',
      'orders: segment "re.fund" is invalid; segments must be non-empty and must not contain "." (ids are dot-joined paths)',
      'orders: segment "" is invalid; segments must be non-empty and must not contain "." (ids are dot-joined paths)',
    ]);
  });

  it("a circular branch is a problem instead of endless recursion", () => {
    const orders: Record<string, unknown> = { refund };
    orders.again = { loop: orders };
    expect(buildProblems({ orders })).toEqual(["orders.again.loop: circular reference to one of its parent objects"]);
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a number", 42],
    ["a string", "orders"],
    ["an array", [refund]],
    ["a function", () => refund],
    ["a Map", new Map([["refund", refund]])],
  ])("non-object defs (%s) throw TypeError", (_label, defs) => {
    expect(() => createCapabilityRegistry(defs as never)).toThrow(TypeError);
  });

  it("a procedure passed as the whole tree is a problem (it has no id)", () => {
    expect(buildProblems(refund)).toEqual([
      "(root): defs is itself an oRPC procedure or contract; place procedures under named keys, e.g. { refund }",
    ]);
  });
});

describe("createCapabilityRegistry: aggregated error", () => {
  it("several problems across paths aggregate into one Error with problems", () => {
    const error = buildError({
      orders: { refund: procedureWith({ ...validAgent, expose: { mcp: 1 } }), lazy: os.lazy(() => Promise.resolve({ default: refund })) },
      reports: { weekly: procedureWith({ ...validAgent, risk: "none" }) },
      ok: refund,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.problems).toHaveLength(3);
    expect(error.problems[0]).toBe("orders.refund: meta.expose.mcp must be a boolean, got 1");
    expect(error.problems[1]).toMatch(/^orders\.lazy: /);
    expect(error.problems[2]).toBe('reports.weekly: meta.risk must be one of low, medium, high, critical, got "none"');
    expect(error.message).toBe(
      `Capability registry validation failed (3 problems):\n  - ${error.problems[0]}\n  - ${error.problems[1]}\n  - ${error.problems[2]}`,
    );
  });

  it("a single problem is reported as \"1 problem\" and problems is frozen", () => {
    const error = buildError({ a: procedureWith({ ...validAgent, description: "" }) });
    expect(error.message).toBe(
      'Capability registry validation failed (1 problem):\n  - a: meta.description is required and must be a non-blank string, got ""',
    );
    expect(Object.isFrozen(error.problems)).toBe(true);
  });
});

describe("createCapabilityRegistry: immutability", () => {
  const build = () =>
    createCapabilityRegistry({
      orders: { refund, internal: plainProcedure() },
      hidden: procedureWith({ ...validAgent, expose: {} }),
    });

  it("mutating returned arrays does not affect the registry", () => {
    const registry = build();
    registry.ids().push("x");
    registry.capabilities().length = 0;
    const inspection = registry.inspect();
    inspection.capabilities.pop();
    inspection.excluded.length = 0;
    inspection.unexposed.push("orders.refund");

    expect(registry.ids()).toEqual(["orders.refund", "hidden"]);
    expect(registry.capabilities()).toHaveLength(2);
    expect(registry.inspect()).toEqual({
      capabilities: registry.capabilities(),
      excluded: [{ path: "orders.internal", reason: "no-agent-meta" }],
      unexposed: ["hidden"],
    });
  });

  it("every listing is a fresh array", () => {
    const registry = build();
    expect(registry.ids()).not.toBe(registry.ids());
    expect(registry.capabilities()).not.toBe(registry.capabilities());
    expect(registry.inspect().excluded).not.toBe(registry.inspect().excluded);
  });

  it("the registry, its capabilities, their paths, meta and excluded entries are frozen", () => {
    const registry = build();
    const capability = registry.get("orders.refund")!;
    expect(Object.isFrozen(registry)).toBe(true);
    expect(Object.isFrozen(capability)).toBe(true);
    expect(Object.isFrozen(capability.path)).toBe(true);
    expect(Object.isFrozen(capability.meta)).toBe(true);
    expect(Object.isFrozen(registry.inspect().excluded[0])).toBe(true);
    expect(() => {
      (capability as { id: string }).id = "other";
    }).toThrow(TypeError);
    expect(() => {
      (capability.meta.expose as Record<string, boolean>).mcp = true;
    }).toThrow(TypeError);
    expect(() => {
      (registry as { get: unknown }).get = () => capability;
    }).toThrow(TypeError);
  });

  it("the internal capability list is the same frozen array every time, in registry order", () => {
    const registry = build();
    const list = readCapabilityList(registry);
    expect(list).toBe(readCapabilityList(registry));
    expect(Object.isFrozen(list)).toBe(true);
    expect(list.map((c) => c.id)).toEqual(registry.ids());
    const filtered = registry.filter({ surface: "aiSdk" });
    expect(readCapabilityList(filtered).map((c) => c.id)).toEqual(["orders.refund"]);
  });

  it("the internal capability list falls back to capabilities() for foreign registry objects", () => {
    const capability = build().get("orders.refund")!;
    const foreign = { ids: () => ["orders.refund"], get: () => capability, capabilities: () => [capability], filter: () => foreign, inspect: () => ({ capabilities: [capability], excluded: [], unexposed: [] }) };
    expect(readCapabilityList(foreign)).toEqual([capability]);
  });
});
