// The oRPC-major seam (docs/guides/orpc-2.md): these tests run in both legs, the oRPC 1 one (`pnpm test`) and the
// oRPC 2 one (`pnpm test:orpc-v2`), and branch on the detected major where the majors differ on purpose.
import { call, ORPCError, os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentMeta } from "../../src/index.js";
import { isValidationFailure, orpcErrorStatus } from "../../src/orpc/errors.js";
import { linkRequest } from "../../src/orpc/link-fetch.js";
import { hasIgnoredAgentMeta, isOrpcLazy, isOrpcProcedure, ORPC_MAJOR, procedureSchemas, withoutInputSchema } from "../../src/orpc/procedure.js";
import { decodeRpcJson, encodeRpcJson } from "../../src/orpc/rpc-json.js";

const agent: AgentMeta = { description: "Look up an order.", expose: { direct: true, mcp: true }, sideEffect: "read", risk: "low" };
const dana = { id: "u_dana", kind: "user" as const };

/** The registry's problems, or [] when it builds. */
function problemsOf(defs: Record<string, unknown>): readonly string[] {
  try {
    createCapabilityRegistry(defs as never);
    return [];
  } catch (error) {
    return (error as { problems?: readonly string[] }).problems ?? [String(error)];
  }
}

describe("the detected major", () => {
  it("is the one this leg aliases @orpc/server to", () => {
    expect(ORPC_MAJOR).toBe(Number(process.env.ORPC_AGENT_ORPC_MAJOR ?? "1"));
  });
});

describe("agentMeta", () => {
  it("is { agent } to oRPC 1's merge: agent is the only enumerable own key; name and init are hidden", () => {
    const declaration = agentMeta(agent);
    expect(Object.keys(declaration)).toEqual(["agent"]);
    expect({ ...declaration }).toEqual({ agent });
    expect(declaration.name).toBe("agent");
    expect(typeof declaration.init).toBe("function");
    expect(Object.isFrozen(declaration)).toBe(true);
  });

  it("is a meta plugin to oRPC 2: init stores the value at meta.agent and keeps the other keys", () => {
    const declaration = agentMeta(agent);
    const previous = { agent: { ...agent, description: "older" }, other: 1 };
    expect(declaration.init(previous)).toEqual({ agent, other: 1 });
    expect(previous.agent.description).toBe("older");
  });

  it("stores the value at ~orpc.meta.agent on this major, and a later declaration replaces an earlier one", () => {
    const later: AgentMeta = { ...agent, description: "Look up an order, later." };
    const procedure = os.meta(agentMeta(agent)).meta(agentMeta(later)).handler(() => "ok");
    expect(procedure["~orpc"].meta).toEqual({ agent: later });
    const registry = createCapabilityRegistry({ orders: { lookup: procedure } });
    expect(registry.get("orders.lookup")?.meta.description).toBe("Look up an order, later.");
  });

  it("is read from a builder's meta by every procedure built from it", () => {
    const base = os.meta(agentMeta(agent));
    const registry = createCapabilityRegistry({ a: base.handler(() => 1), b: base.input(z.string()).handler(({ input }) => input) });
    expect(registry.ids()).toEqual(["a", "b"]);
  });
});

describe(".meta({ agent }) with a plain object", () => {
  const plain = () => os.meta({ agent } as never).handler(() => "ok");

  if (ORPC_MAJOR === 1) {
    it("oRPC 1: still declares the capability, as ADR-001 has it", () => {
      const registry = createCapabilityRegistry({ orders: { lookup: plain() } });
      expect(registry.get("orders.lookup")?.meta.description).toBe("Look up an order.");
      expect(hasIgnoredAgentMeta(plain())).toBe(false);
    });

    it("oRPC 1: agentProcedure's builder takes it as before, and a runtime invokes it", async () => {
      const procedure = os.input(z.object({ id: z.string() })).meta({ agent }).handler(({ input }) => ({ id: input.id }));
      const runtime = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ lookup: procedure }) }) });
      const result = await runtime.invoke("lookup", { id: "o1" }, { actor: dana, context: {} });
      expect(result).toMatchObject({ status: "completed", output: { id: "o1" } });
    });
  } else {
    it("oRPC 2: is refused with a RegistryValidationError naming the path and agentMeta, never silently dropped", () => {
      const procedure = plain();
      // What oRPC 2 does with it: kept among the meta plugins, never applied.
      expect((procedure["~orpc"].meta as { agent?: unknown }).agent).toBeUndefined();
      expect(hasIgnoredAgentMeta(procedure)).toBe(true);
      expect(() => createCapabilityRegistry({ orders: { lookup: procedure } })).toThrow(/orders\.lookup: passes a plain \{ agent \} object/);
      const problems = problemsOf({ orders: { lookup: procedure }, ok: os.meta(agentMeta(agent)).handler(() => 1) });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain("orders.lookup");
      expect(problems[0]).toContain(".meta(agentMeta({ ... }))");
    });

    it("oRPC 2: is refused even beside a valid agentMeta declaration (which one was meant is unknowable)", () => {
      const procedure = os.meta(agentMeta(agent)).meta({ agent } as never).handler(() => "ok");
      expect(problemsOf({ p: procedure })).toEqual([expect.stringMatching(/^p: passes a plain \{ agent \} object/)]);
    });

    it("oRPC 2: a plain object without agent is oRPC's business, not a problem (the procedure is just excluded)", () => {
      const procedure = os.meta({ audited: true } as never).handler(() => "ok");
      expect(hasIgnoredAgentMeta(procedure)).toBe(false);
      expect(createCapabilityRegistry({ p: procedure }).inspect().excluded).toEqual([{ path: "p", reason: "no-agent-meta" }]);
    });
  }
});

describe("procedure layout", () => {
  it("finds the input and output schema on this major", () => {
    const input = z.object({ id: z.string() });
    const output = z.object({ ok: z.boolean() });
    const procedure = os.input(input).output(output).handler(() => ({ ok: true }));
    expect(procedureSchemas(procedure)).toEqual({ inputSchema: input, outputSchema: output, inputCount: 1, outputCount: 1 });
    expect(procedureSchemas(os.handler(() => 1))).toEqual({ inputSchema: undefined, outputSchema: undefined, inputCount: 0, outputCount: 0 });
  });

  it(".input() twice: oRPC 1 keeps the last schema, oRPC 2 chains both, which the registry refuses", () => {
    const first = z.object({ id: z.string() });
    const second = z.object({ id: z.string(), extra: z.number().optional() });
    // oRPC 1 types allow one .input(); the cast lets the same line run on both majors.
    const procedure = (os.input(first) as unknown as typeof os).input(second).meta(agentMeta(agent)).handler(() => 1);
    if (ORPC_MAJOR === 1) {
      expect(procedureSchemas(procedure)).toMatchObject({ inputSchema: second, inputCount: 1 });
      expect(problemsOf({ p: procedure })).toEqual([]);
    } else {
      expect(procedureSchemas(procedure)).toMatchObject({ inputSchema: first, inputCount: 2 });
      expect(problemsOf({ p: procedure })).toEqual([expect.stringMatching(/^p: declares 2 input schemas .*merge them into one/)]);
    }
  });

  it("tells procedures and lazies apart", () => {
    const procedure = os.handler(() => 1);
    const lazy = os.lazy(() => Promise.resolve({ default: { procedure } }));
    expect(isOrpcProcedure(procedure)).toBe(true);
    expect(isOrpcProcedure(lazy)).toBe(false);
    expect(isOrpcProcedure({ "~orpc": {} })).toBe(false);
    expect(isOrpcLazy(lazy)).toBe(true);
    expect(isOrpcLazy(procedure)).toBe(false);
    expect(isOrpcLazy({})).toBe(false);
  });
});

describe("withoutInputSchema (ADR-020)", () => {
  it("drops input validation only: middlewares before and after .input() run, output validation and errors stay", async () => {
    const seen: string[] = [];
    const procedure = os
      .use(({ next }) => (seen.push("before"), next()))
      .input(z.object({ n: z.coerce.number() }))
      .use(({ next }, input) => (seen.push(`after:${JSON.stringify(input)}`), next()))
      .output(z.object({ doubled: z.number() }))
      .handler(({ input }) => ({ doubled: (input as { n: number }).n * 2 }));
    const executable = withoutInputSchema(procedure);
    expect(executable).not.toBe(procedure);
    expect(procedureSchemas(executable)).toMatchObject({ inputSchema: undefined, inputCount: 0, outputCount: 1 });
    // A value the schema would coerce reaches the handler as given: nothing parses it a second time.
    await expect(call(executable, { n: 21 }, { context: {} })).resolves.toEqual({ doubled: 42 });
    expect(seen).toEqual(["before", 'after:{"n":21}']);
    const raw = await call(executable, { n: "21" } as never, { context: {} }).catch((e: unknown) => e);
    // "21" * 2 is 42 in JS: the string went through unparsed, and output validation still ran on the result.
    expect(raw).toEqual({ doubled: 42 });
    const invalidOutput = withoutInputSchema(os.input(z.string()).output(z.number()).handler(() => "nope" as never));
    const failure = await call(invalidOutput, "x", { context: {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ORPCError);
    expect(isValidationFailure(failure as ORPCError<string, unknown>)).toBe(true);
    expect((failure as ORPCError<string, unknown>).code).toBe("INTERNAL_SERVER_ERROR");
  });

  it("returns a schema-less procedure itself", () => {
    const procedure = os.handler(() => 1);
    expect(withoutInputSchema(procedure)).toBe(procedure);
  });

  it("the original still validates", async () => {
    const procedure = os.input(z.object({ n: z.number() })).handler(({ input }) => input.n);
    withoutInputSchema(procedure);
    const failure = await call(procedure, { n: "1" } as never, { context: {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ORPCError);
    expect((failure as ORPCError<string, unknown>).code).toBe("BAD_REQUEST");
    expect(isValidationFailure(failure as ORPCError<string, unknown>)).toBe(true);
  });
});

describe("error status", () => {
  it("reads a known code's status on both majors, and 500 for an unmapped code without its own", () => {
    expect(orpcErrorStatus(new ORPCError("NOT_FOUND"))).toBe(404);
    expect(orpcErrorStatus(new ORPCError("SERVICE_UNAVAILABLE"))).toBe(503);
    expect(orpcErrorStatus(new ORPCError("CUSTOM_APP_CODE"))).toBe(500);
    expect(isValidationFailure(new ORPCError("BAD_REQUEST"))).toBe(false);
  });

  it("oRPC 1 keeps an explicit status; oRPC 2 has none on the error and uses the code's", () => {
    const error = new ORPCError("CUSTOM_APP_CODE", { status: 422 } as never);
    expect(orpcErrorStatus(error)).toBe(ORPC_MAJOR === 1 ? 422 : 500);
  });
});

describe("linkRequest", () => {
  it("passes a Request (oRPC 1) through with its init", () => {
    const request = new Request("http://x.invalid/rpc/a", { method: "POST" });
    const init = { redirect: "manual" as const };
    expect(linkRequest(request, init)).toEqual({ request, init });
  });

  it("makes a Request of a URL and init (oRPC 2), keeping method, headers, body and the abort signal", async () => {
    const controller = new AbortController();
    const { request, init } = linkRequest("http://x.invalid/rpc/a", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"json":1}',
      signal: controller.signal,
      redirect: "manual",
    });
    expect(request.url).toBe("http://x.invalid/rpc/a");
    expect(request.method).toBe("POST");
    expect(request.headers.get("content-type")).toBe("application/json");
    expect(await request.text()).toBe('{"json":1}');
    expect(init).toEqual({ redirect: "manual" });
    expect(request.signal.aborted).toBe(false);
    controller.abort(new Error("stop"));
    expect(request.signal.aborted).toBe(true);
  });
});

describe("RPC JSON (journal rows, input hashes)", () => {
  const value = { at: new Date("2026-01-02T03:04:05.000Z"), big: 10n, tags: new Set(["a"]), byId: new Map([["k", 1]]), list: [1, undefined], url: new URL("http://x.invalid/") };

  it("is stored in the 1.x form on both majors: numeric type tags at the same paths", () => {
    expect(encodeRpcJson(value)).toEqual({
      json: { at: "2026-01-02T03:04:05.000Z", big: "10", tags: ["a"], byId: [["k", 1]], list: [1, null], url: "http://x.invalid/" },
      meta: [[1, "at"], [0, "big"], [6, "tags"], [7, "byId"], [3, "list", 1], [4, "url"]],
    });
  });

  it("round-trips, and reads rows written in the 1.x form", () => {
    expect(decodeRpcJson(encodeRpcJson(value))).toEqual(value);
    expect(decodeRpcJson({ json: { d: "2026-01-02T03:04:05.000Z", n: "7" }, meta: [[1, "d"], [0, "n"]] })).toEqual({ d: new Date("2026-01-02T03:04:05.000Z"), n: 7n });
  });

  it("refuses blobs", () => {
    expect(() => encodeRpcJson({ file: new Blob(["x"]) })).toThrow(/cannot be journaled/);
  });
});
