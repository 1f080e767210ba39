import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { normalizeAgentMeta, validateAgentMeta } from "../../src/registry/validate-meta.js";
import { createCapabilityRegistry } from "../../src/registry/create-registry.js";
import { buildError, buildProblems, procedureWith, validAgent } from "./fixtures.js";
import { agentMeta } from "@orpc-agent/core";

const PATH = "orders.refund";
const policy = { name: "p", phases: ["invocation"], evaluate: () => ({ type: "allow" }) };

function without(key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...validAgent };
  delete copy[key];
  return copy;
}

function problemsFor(agent: unknown): readonly string[] {
  return buildProblems({ orders: { refund: procedureWith(agent) } });
}

// docs/architecture/spec/core.md#core-2-2: [what is wrong, the agent meta, the exact problem line].
const matrix: [string, unknown, string][] = [
  ["agent is not an object", "yes", 'agent must be a plain object (AgentMeta), got "yes"'],
  ["agent is null", null, "agent must be a plain object (AgentMeta), got null"],
  ["description missing", without("description"), "meta.description is required and must be a non-blank string, got undefined"],
  ["description blank", { ...validAgent, description: "  \n" }, 'meta.description is required and must be a non-blank string, got "  \\n"'],
  ["description not a string", { ...validAgent, description: 5 }, "meta.description is required and must be a non-blank string, got 5"],
  ["expose missing", without("expose"), "meta.expose is required (use {} to reach the capability from nowhere)"],
  ["expose an array", { ...validAgent, expose: ["aiSdk"] }, "meta.expose must be a plain object of surface → boolean, got an array"],
  ["expose a string", { ...validAgent, expose: "aiSdk" }, 'meta.expose must be a plain object of surface → boolean, got "aiSdk"'],
  ["expose a Map", { ...validAgent, expose: new Map([["aiSdk", true]]) }, "meta.expose must be a plain object of surface → boolean, got an object"],
  ["expose unknown surface", { ...validAgent, expose: { cli: true } }, "meta.expose.cli is not an exposure surface (expected one of direct, aiSdk, mcp, workflow, test)"],
  ["expose value 1", { ...validAgent, expose: { mcp: 1 } }, "meta.expose.mcp must be a boolean, got 1"],
  ["expose value \"true\"", { ...validAgent, expose: { aiSdk: "true" } }, 'meta.expose.aiSdk must be a boolean, got "true"'],
  ["expose value null", { ...validAgent, expose: { direct: null } }, "meta.expose.direct must be a boolean, got null"],
  ["sideEffect missing", without("sideEffect"), "meta.sideEffect must be one of none, read, write, destructive, external, got undefined"],
  ["sideEffect invalid", { ...validAgent, sideEffect: "delete" }, 'meta.sideEffect must be one of none, read, write, destructive, external, got "delete"'],
  ["risk missing", without("risk"), "meta.risk must be one of low, medium, high, critical, got undefined"],
  ["risk invalid", { ...validAgent, risk: "extreme" }, 'meta.risk must be one of low, medium, high, critical, got "extreme"'],
  ["tags not an array", { ...validAgent, tags: "billing" }, 'meta.tags must be an array of strings, got "billing"'],
  ["tags with a non-string", { ...validAgent, tags: ["billing", 3] }, "meta.tags must be an array of strings, got an array"],
  ["timeoutMs zero", { ...validAgent, timeoutMs: 0 }, "meta.timeoutMs must be a finite number > 0, got 0"],
  ["timeoutMs negative", { ...validAgent, timeoutMs: -5 }, "meta.timeoutMs must be a finite number > 0, got -5"],
  ["timeoutMs infinite", { ...validAgent, timeoutMs: Infinity }, "meta.timeoutMs must be a finite number > 0, got Infinity"],
  ["timeoutMs NaN", { ...validAgent, timeoutMs: NaN }, "meta.timeoutMs must be a finite number > 0, got NaN"],
  ["timeoutMs a string", { ...validAgent, timeoutMs: "100" }, 'meta.timeoutMs must be a finite number > 0, got "100"'],
  ["idempotent not boolean", { ...validAgent, idempotent: "yes" }, 'meta.idempotent must be a boolean, got "yes"'],
  ["retry not an object", { ...validAgent, retry: 3 }, "meta.retry must be a plain object, got 3"],
  ["retry.maxAttempts missing", { ...validAgent, retry: {} }, "meta.retry.maxAttempts must be an integer >= 0, got undefined"],
  ["retry.maxAttempts fractional", { ...validAgent, retry: { maxAttempts: 1.5 } }, "meta.retry.maxAttempts must be an integer >= 0, got 1.5"],
  ["retry.maxAttempts negative", { ...validAgent, retry: { maxAttempts: -1 } }, "meta.retry.maxAttempts must be an integer >= 0, got -1"],
  ["retry.backoffMs zero", { ...validAgent, retry: { maxAttempts: 1, backoffMs: 0 } }, "meta.retry.backoffMs must be a finite number > 0, got 0"],
  ["retry.backoffMs infinite", { ...validAgent, retry: { maxAttempts: 1, backoffMs: Infinity } }, "meta.retry.backoffMs must be a finite number > 0, got Infinity"],
  ["retry.retryOn not a function", { ...validAgent, retry: { maxAttempts: 1, retryOn: true } }, "meta.retry.retryOn must be a function, got true"],
  ["approval not an object", { ...validAgent, approval: true }, "meta.approval must be a plain object, got true"],
  ["approval.required not boolean", { ...validAgent, approval: { required: "true" } }, 'meta.approval.required must be a boolean, got "true"'],
  ["approval.type not a string", { ...validAgent, approval: { type: 7 } }, "meta.approval.type must be a string, got 7"],
  ["approval.expiresInMs not positive", { ...validAgent, approval: { expiresInMs: 0 } }, "meta.approval.expiresInMs must be a finite number > 0, got 0"],
  ["redact not an object", { ...validAgent, redact: () => null }, "meta.redact must be a plain object, got a function"],
  ["redact.output not a function", { ...validAgent, redact: { output: "mask" } }, 'meta.redact.output must be a function, got "mask"'],
  ["redact.approvalInput not a function", { ...validAgent, redact: { approvalInput: 1 } }, "meta.redact.approvalInput must be a function, got 1"],
  ["policies not an array", { ...validAgent, policies: policy }, "meta.policies must be an array of policies, got an object"],
  ["policies item null", { ...validAgent, policies: [policy, null] }, "meta.policies[1] must be a policy { name: string; phases: array; evaluate: function } (build it with definePolicy), got null"],
  ["policies item without name", { ...validAgent, policies: [{ ...policy, name: undefined }] }, "meta.policies[0] must be a policy { name: string; phases: array; evaluate: function } (build it with definePolicy), got an object"],
  ["policies item with string phases", { ...validAgent, policies: [{ ...policy, phases: "invocation" }] }, "meta.policies[0] must be a policy { name: string; phases: array; evaluate: function } (build it with definePolicy), got an object"],
  ["policies item without evaluate", { ...validAgent, policies: [{ name: "p", phases: [] }] }, "meta.policies[0] must be a policy { name: string; phases: array; evaluate: function } (build it with definePolicy), got an object"],
  ["policies item a function", { ...validAgent, policies: [() => ({ type: "allow" })] }, "meta.policies[0] must be a policy { name: string; phases: array; evaluate: function } (build it with definePolicy), got a function"],
  ["discovery invalid", { ...validAgent, discovery: "hidden" }, 'meta.discovery must be "discoverable" or "contextual", got "hidden"'],
  ["adapters not an object", { ...validAgent, adapters: "mcp" }, 'meta.adapters must be a plain object, got "mcp"'],
  ["adapters.aiSdk not an object", { ...validAgent, adapters: { aiSdk: 1 } }, "meta.adapters.aiSdk must be a plain object, got 1"],
  ["adapters.mcp not an object", { ...validAgent, adapters: { mcp: [] } }, "meta.adapters.mcp must be a plain object, got an array"],
  ["adapters.aiSdk.toolName empty", { ...validAgent, adapters: { aiSdk: { toolName: "" } } }, 'meta.adapters.aiSdk.toolName must be a non-empty string, got ""'],
  ["adapters.mcp.toolName not a string", { ...validAgent, adapters: { mcp: { toolName: 5 } } }, "meta.adapters.mcp.toolName must be a non-empty string, got 5"],
  ["adapters.mcp.annotations not an object", { ...validAgent, adapters: { mcp: { annotations: "ro" } } }, 'meta.adapters.mcp.annotations must be a plain object, got "ro"'],
  ["adapters.mcp.scopes empty", { ...validAgent, adapters: { mcp: { scopes: [] } } }, "meta.adapters.mcp.scopes must be a non-empty array of OAuth scope tokens, got an array"],
  ["adapters.mcp.scopes with a space", { ...validAgent, adapters: { mcp: { scopes: ["a b"] } } }, "meta.adapters.mcp.scopes must be a non-empty array of OAuth scope tokens, got an array"],
  ["annotations.title not a string", { ...validAgent, adapters: { mcp: { annotations: { title: 1 } } } }, "meta.adapters.mcp.annotations.title must be a string, got 1"],
  ["annotations.readOnlyHint not boolean", { ...validAgent, adapters: { mcp: { annotations: { readOnlyHint: "yes" } } } }, 'meta.adapters.mcp.annotations.readOnlyHint must be a boolean, got "yes"'],
  ["annotations.destructiveHint not boolean", { ...validAgent, adapters: { mcp: { annotations: { destructiveHint: 0 } } } }, "meta.adapters.mcp.annotations.destructiveHint must be a boolean, got 0"],
  ["annotations.idempotentHint not boolean", { ...validAgent, adapters: { mcp: { annotations: { idempotentHint: null } } } }, "meta.adapters.mcp.annotations.idempotentHint must be a boolean, got null"],
  ["annotations.openWorldHint not boolean", { ...validAgent, adapters: { mcp: { annotations: { openWorldHint: "no" } } } }, 'meta.adapters.mcp.annotations.openWorldHint must be a boolean, got "no"'],
  ["stream not an object", { ...validAgent, stream: 5 }, "meta.stream must be a plain object { idleTimeoutMs?, maxEvents? }, got 5"],
  ["stream unknown key", { ...validAgent, stream: { max: 5 } }, "meta.stream.max is not a stream bound (expected idleTimeoutMs or maxEvents)"],
  ["stream.idleTimeoutMs zero", { ...validAgent, stream: { idleTimeoutMs: 0 } }, "meta.stream.idleTimeoutMs must be a finite number > 0, got 0"],
  ["stream.idleTimeoutMs infinite", { ...validAgent, stream: { idleTimeoutMs: Infinity } }, "meta.stream.idleTimeoutMs must be a finite number > 0, got Infinity"],
  ["stream.maxEvents zero", { ...validAgent, stream: { maxEvents: 0 } }, "meta.stream.maxEvents must be an integer >= 1, got 0"],
  ["stream.maxEvents fractional", { ...validAgent, stream: { maxEvents: 2.5 } }, "meta.stream.maxEvents must be an integer >= 1, got 2.5"],
  ["unknown top-level key", { ...validAgent, exposed: { mcp: true } }, "meta.exposed is not an AgentMeta key (unknown keys are rejected)"],
];

describe("agent meta validation matrix (core.md §2.2)", () => {
  it.each(matrix)("%s is a registry problem naming the capability path", (_label, agent, expected) => {
    const error = buildError({ orders: { refund: procedureWith(agent) } });
    expect(error.problems).toEqual([`${PATH}: ${expected}`]);
    expect(error.message).toContain(`\n  - ${PATH}: ${expected}`);
  });
});

describe("SI-1 exposure values", () => {
  it("SI-1: truthy non-boolean expose values (1, \"true\") fail the build", () => {
    expect(problemsFor({ ...validAgent, expose: { mcp: 1, aiSdk: "true" } })).toEqual([
      `${PATH}: meta.expose.mcp must be a boolean, got 1`,
      `${PATH}: meta.expose.aiSdk must be a boolean, got "true"`,
    ]);
  });

  it("SI-1: explicit false and absent surfaces are valid", () => {
    const registry = createCapabilityRegistry({ a: procedureWith({ ...validAgent, expose: { aiSdk: false, direct: true } }) });
    expect(registry.get("a")?.meta.expose).toEqual({ aiSdk: false, direct: true });
  });
});

describe("SI-11 retry on write-like capabilities", () => {
  it.each(["write", "destructive", "external"])(
    "SI-11: %s + retry.maxAttempts > 0 without idempotent: true fails the build",
    (sideEffect) => {
      expect(problemsFor({ ...validAgent, sideEffect, retry: { maxAttempts: 2 } })).toEqual([
        `${PATH}: meta.retry.maxAttempts is 2 on a write-like capability (sideEffect "${sideEffect}") without idempotent: true; ` +
          "writes are never auto-retried (SI-11). Set idempotent: true or remove retry",
      ]);
    },
  );

  it("SI-11: idempotent: false is as unsafe as no idempotent at all", () => {
    expect(problemsFor({ ...validAgent, sideEffect: "write", idempotent: false, retry: { maxAttempts: 1 } })).toHaveLength(1);
  });

  it("SI-11: idempotent writes, reads and writes with maxAttempts 0 may declare retry", () => {
    const registry = createCapabilityRegistry({
      idempotentWrite: procedureWith({ ...validAgent, sideEffect: "write", idempotent: true, retry: { maxAttempts: 3 } }),
      read: procedureWith({ ...validAgent, sideEffect: "read", retry: { maxAttempts: 3, backoffMs: 10, retryOn: () => true } }),
      none: procedureWith({ ...validAgent, sideEffect: "none", retry: { maxAttempts: 1 } }),
      noRetryWrite: procedureWith({ ...validAgent, sideEffect: "destructive", retry: { maxAttempts: 0 } }),
    });
    expect(registry.ids()).toEqual(["idempotentWrite", "read", "none", "noRetryWrite"]);
  });
});

describe("accepted meta", () => {
  it("accepts every optional field when well formed", () => {
    const agent = {
      description: "Refund an order",
      expose: { direct: true, aiSdk: true, mcp: true, workflow: false, test: true },
      sideEffect: "write",
      risk: "critical",
      tags: ["billing", "orders"],
      timeoutMs: 2_000,
      retry: { maxAttempts: 2, backoffMs: 100, retryOn: () => true },
      idempotent: true,
      approval: { required: true, type: "manager", expiresInMs: 60_000 },
      redact: { output: (o: unknown) => o, approvalInput: (i: unknown) => i },
      policies: [policy],
      discovery: "contextual",
      adapters: {
        aiSdk: { toolName: "refund_order" },
        mcp: { toolName: "refund-order", annotations: { title: "Refund", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } },
      },
    };
    const meta = createCapabilityRegistry({ orders: { refund: procedureWith(agent) } }).get("orders.refund")?.meta;
    expect(meta).toEqual(agent);
  });

  it("ignores unknown keys inside adapters", () => {
    const agent = {
      ...validAgent,
      adapters: { openai: { strict: true }, aiSdk: { toolName: "x", extra: 1 }, mcp: { hint: "y", annotations: { icon: "z" } } },
    };
    expect(() => createCapabilityRegistry({ a: procedureWith(agent) })).not.toThrow();
  });

  it("collects every problem of one meta object rather than stopping at the first", () => {
    expect(problemsFor({ description: "", expose: { mcp: 1 }, sideEffect: "x", risk: "y", extra: true })).toEqual([
      `${PATH}: meta.extra is not an AgentMeta key (unknown keys are rejected)`,
      `${PATH}: meta.description is required and must be a non-blank string, got ""`,
      `${PATH}: meta.expose.mcp must be a boolean, got 1`,
      `${PATH}: meta.sideEffect must be one of none, read, write, destructive, external, got "x"`,
      `${PATH}: meta.risk must be one of low, medium, high, critical, got "y"`,
    ]);
  });
});

describe("normalization (core.md §1.1)", () => {
  it("defaults tags and policies to [] and idempotent to false", () => {
    const meta = createCapabilityRegistry({ a: procedureWith(validAgent) }).get("a")?.meta;
    expect(meta).toEqual({ ...validAgent, tags: [], policies: [], idempotent: false });
  });

  it("keeps given tags, policies and idempotent", () => {
    const meta = normalizeAgentMeta({ ...validAgent, tags: ["t"], policies: [policy], idempotent: true } as never);
    expect(meta.tags).toEqual(["t"]);
    expect(meta.policies).toEqual([policy]);
    // A hand-built policy is pinned into a frozen copy, so its mode cannot change after the registry sorted it.
    expect(Object.isFrozen(meta.policies?.[0])).toBe(true);
    expect(meta.idempotent).toBe(true);
  });

  it("returns a frozen copy whose expose, tags and policies are frozen copies too", () => {
    const source = { ...validAgent, expose: { aiSdk: true }, tags: ["t"], policies: [policy] };
    const procedure = procedureWith(source);
    const meta = createCapabilityRegistry({ a: procedure }).get("a")!.meta;

    expect(meta).not.toBe(source);
    expect(Object.isFrozen(meta)).toBe(true);
    expect(Object.isFrozen(meta.expose)).toBe(true);
    expect(Object.isFrozen(meta.tags)).toBe(true);
    expect(Object.isFrozen(meta.policies)).toBe(true);
    expect(() => {
      (meta as { risk: string }).risk = "critical";
    }).toThrow(TypeError);

    // Editing the procedure's meta afterwards cannot widen exposure or change tags.
    (source.expose as Record<string, boolean>).mcp = true;
    source.tags.push("added");
    expect(meta.expose).toEqual({ aiSdk: true });
    expect(meta.tags).toEqual(["t"]);
  });

  it("validateAgentMeta returns undefined and pushes problems for invalid meta, the normalized meta otherwise", () => {
    const problems: string[] = [];
    expect(validateAgentMeta("x", { ...validAgent, risk: "none" }, problems)).toBeUndefined();
    expect(problems).toEqual(['x: meta.risk must be one of low, medium, high, critical, got "none"']);
    const meta = validateAgentMeta("y", validAgent, problems);
    expect(meta).toEqual({ ...validAgent, tags: [], policies: [], idempotent: false });
    expect(problems).toHaveLength(1);
  });

  it("reads meta set through os.meta on real procedures", () => {
    const procedure = os.meta(agentMeta(validAgent)).handler(() => 1);
    const capability = createCapabilityRegistry({ p: procedure }).get("p");
    expect(capability?.meta.description).toBe("Look up an order");
    expect(capability?.procedure).toBe(procedure);
  });
});
