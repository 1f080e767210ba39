import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  agentProcedure,
  allow,
  composePolicies,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  type AgentMeta,
} from "@orpc-agent/core";
import { registerSchemaConverter } from "@orpc-agent/core/schema";
import { buildSnapshot } from "../../src/snapshot/build-snapshot.js";
import { canonicalJson } from "../../src/snapshot/canonical-json.js";
import { sha256 } from "../../src/snapshot/sha256.js";
import { snapshotJson } from "../../src/snapshot/snapshot-json.js";

const ap = agentProcedure(os);
const base: AgentMeta = { description: "A capability.", expose: { direct: true }, sideEffect: "read", risk: "low" };
const procedure = (meta: Partial<AgentMeta>) => ap.meta({ agent: { ...base, ...meta } }).handler(() => null);
const pass = () => allow();

describe("buildSnapshot: capability entries (cli.md §6.2)", () => {
  it("SI-1: exposure records only surfaces set to exactly true; false is the same as absent", () => {
    const registry = createCapabilityRegistry({
      a: procedure({ expose: { mcp: true, aiSdk: false, direct: true } }),
      b: procedure({ expose: { mcp: true, direct: true } }),
      none: procedure({ expose: { aiSdk: false } }),
    });
    const [a, b, none] = buildSnapshot(registry).capabilities;
    expect(a?.expose).toEqual(["direct", "mcp"]);
    expect({ ...a, id: "b", toolNames: { mcp: "b" } }).toEqual(b);
    expect(none?.expose).toEqual([]);
    expect(buildSnapshot(registry).unexposed).toEqual(["none"]);
  });

  it("toolNames: exposed aiSdk/mcp only, the meta override else defaultToolName; absent when empty", () => {
    const registry = createCapabilityRegistry({
      orders: {
        refund: procedure({ expose: { aiSdk: true, mcp: true }, adapters: { mcp: { toolName: "refund_order" } } }),
        hidden: procedure({ expose: { direct: true }, adapters: { aiSdk: { toolName: "never_shown" } } }),
      },
    });
    const [hidden, refund] = buildSnapshot(registry).capabilities;
    expect(refund?.toolNames).toEqual({ aiSdk: "orders_refund", mcp: "refund_order" });
    expect(hidden).not.toHaveProperty("toolNames");
  });

  it("discovery is recorded on every entry, defaulting to discoverable", () => {
    const registry = createCapabilityRegistry({ a: procedure({}), b: procedure({ discovery: "contextual" }) });
    expect(buildSnapshot(registry).capabilities.map((c) => c.discovery)).toEqual(["discoverable", "contextual"]);
  });

  it("sorts capabilities, tags, excluded and unexposed by code unit, and keeps policies in declaration order", () => {
    const registry = createCapabilityRegistry({
      b: procedure({ tags: ["zeta", "Alpha", "alpha"], policies: [definePolicy("z-first", pass), definePolicy("a-second", pass)] }),
      a: procedure({ expose: {} }),
      B: procedure({}),
      plain: { z: os.handler(() => null), Z: os.handler(() => null) },
    });
    const snapshot = buildSnapshot(registry);
    // Code-unit order puts uppercase first; a locale sort would not.
    expect(snapshot.capabilities.map((c) => c.id)).toEqual(["B", "a", "b"]);
    expect(snapshot.capabilities[2]?.tags).toEqual(["Alpha", "alpha", "zeta"]);
    expect(snapshot.capabilities[2]?.policies).toEqual(["z-first", "a-second"]);
    expect(snapshot.excluded).toEqual(["plain.Z", "plain.z"]);
    expect(snapshot.unexposed).toEqual(["a"]);
  });

  it("functions become presence flags and policy bodies never appear", () => {
    const registry = createCapabilityRegistry({
      a: procedure({
        sideEffect: "write",
        idempotent: true,
        retry: { maxAttempts: 2, backoffMs: 50, retryOn: () => true },
        redact: { output: (o) => o },
        approval: { required: true, type: "finance", expiresInMs: 60_000 },
        timeoutMs: 1_000,
      }),
      b: procedure({ retry: { maxAttempts: 0 }, approval: {} }),
    });
    const [a, b] = buildSnapshot(registry).capabilities;
    expect(a?.retry).toEqual({ maxAttempts: 2, backoffMs: 50, retryOn: true });
    expect(a?.redact).toEqual({ output: true, approvalInput: false });
    expect(a?.approval).toEqual({ required: true, type: "finance", expiresInMs: 60_000 });
    expect(a?.timeoutMs).toBe(1_000);
    expect(a?.idempotent).toBe(true);
    expect(b?.retry).toEqual({ maxAttempts: 0, retryOn: false });
    expect(b?.approval).toEqual({ required: false });
    expect(b).not.toHaveProperty("redact");
    expect(b).not.toHaveProperty("timeoutMs");
    expect(snapshotJson(buildSnapshot(registry))).not.toMatch(/=>|function/);
    // A quorum above 1 is recorded; 1 is the default and left out, so single-approver snapshots stay unchanged.
    const quorums = buildSnapshot(
      createCapabilityRegistry({ c: procedure({ approval: { required: true, quorum: 2 } }), d: procedure({ approval: { required: true, quorum: 1 } }) }),
    ).capabilities;
    expect(quorums.map((entry) => entry.approval)).toEqual([{ required: true, quorum: 2 }, { required: true }]);
  });

  it("inputSchemaHash: sha256 of the canonical JSON Schema, null without a schema, unconvertible when conversion throws", () => {
    const opaque = { "~standard": { version: 1, vendor: "no-converter-registered", validate: (value: unknown) => ({ value }) } };
    const registry = createCapabilityRegistry({
      zod: ap.input(z.object({ id: z.string() })).meta({ agent: base }).handler(() => null),
      none: procedure({}),
      opaque: ap.input(opaque as never).meta({ agent: base }).handler(() => null),
    });
    const byId = Object.fromEntries(buildSnapshot(registry).capabilities.map((c) => [c.id, c.inputSchemaHash]));
    expect(byId.zod).toBe(sha256(canonicalJson(z.toJSONSchema(z.object({ id: z.string() }), { io: "input" }))));
    expect(byId.zod).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(byId.none).toBeNull();
    expect(byId.opaque).toBe("unconvertible");
  });

  it("hashing ignores the key order of the JSON Schema", () => {
    const vendorSchema = (vendor: string) => ({ "~standard": { version: 1, vendor, validate: (value: unknown) => ({ value }) } });
    registerSchemaConverter("cli-test-order-a", () => ({ type: "object", properties: { a: { type: "string" } }, required: ["a"] }));
    registerSchemaConverter("cli-test-order-b", () => ({ required: ["a"], properties: { a: { type: "string" } }, type: "object" }));
    const registry = createCapabilityRegistry({
      a: ap.input(vendorSchema("cli-test-order-a") as never).meta({ agent: base }).handler(() => null),
      b: ap.input(vendorSchema("cli-test-order-b") as never).meta({ agent: base }).handler(() => null),
    });
    const [a, b] = buildSnapshot(registry).capabilities;
    expect(a?.inputSchemaHash).toMatch(/^sha256:/);
    expect(a?.inputSchemaHash).toBe(b?.inputSchemaHash);
  });

  it("--no-descriptions omits description and nothing else", () => {
    const registry = createCapabilityRegistry({ a: procedure({ tags: ["t"] }) });
    const withDescriptions = buildSnapshot(registry).capabilities[0];
    const without = buildSnapshot(registry, { descriptions: false }).capabilities[0];
    expect(withDescriptions?.description).toBe("A capability.");
    expect(without).not.toHaveProperty("description");
    expect({ ...withDescriptions, description: undefined }).toEqual({ ...without, description: undefined });
  });

  it("rebuilds are byte-identical and carry no timestamps, versions or paths", () => {
    const make = () =>
      createCapabilityRegistry({ z: procedure({ tags: ["b", "a"] }), a: { b: procedure({ expose: { aiSdk: true } }) } });
    const first = snapshotJson(buildSnapshot(make()));
    expect(snapshotJson(buildSnapshot(make()))).toBe(first);
    expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}T|\/work\/|5\.0\.0/);
    expect(first.endsWith("}\n")).toBe(true);
  });
});

describe("buildSnapshot: runtime policies (cli.md §6.2)", () => {
  const registry = createCapabilityRegistry({
    accounts: { close: procedure({ sideEffect: "destructive", expose: { aiSdk: true }, tags: ["accounts"] }) },
    reports: { read: procedure({}) },
  });

  it("a bare registry leaves runtime absent (not observed), never defaulted", () => {
    expect(buildSnapshot(registry)).not.toHaveProperty("runtime");
  });

  it("a governance without policies records an observed, empty list", () => {
    expect(buildSnapshot(defineGovernance({ registry })).runtime).toEqual({ policies: [] });
  });

  it("copies name, sorted phases, the normalized scope and the candidates from the manifest, in evaluation order", () => {
    const governance = defineGovernance({
      registry,
      policies: [
        definePolicy("writes", pass, { phases: ["invocation", "discovery"], scope: { capabilities: { sideEffects: ["destructive", "write"] }, surfaces: ["mcp", "aiSdk"] } }),
        definePolicy("all", pass),
      ],
    });
    expect(buildSnapshot(governance).runtime?.policies).toEqual([
      {
        name: "writes",
        phases: ["discovery", "invocation"],
        scope: { capabilities: { sideEffects: ["write", "destructive"] }, surfaces: ["aiSdk", "mcp"] },
        candidates: ["accounts.close"],
      },
      { name: "all", phases: ["invocation"], candidates: ["accounts.close", "reports.read"] },
    ]);
  });

  it("a runtime reports its governance's manifest", () => {
    const governance = defineGovernance({ registry, policies: [definePolicy("p", pass)] });
    const runtime = createAgentRuntime({ governance, approvals: { coordinator: createInMemoryApprovalCoordinator() }, audit: () => {} });
    expect(buildSnapshot(runtime)).toEqual(buildSnapshot(governance));
  });

  it("flattens runtime-level composites but keeps a capability-level composite's name", () => {
    const composite = composePolicies(definePolicy("first", pass), definePolicy("second", pass));
    const local = createCapabilityRegistry({ a: procedure({ policies: [composite] }) });
    const snapshot = buildSnapshot(defineGovernance({ registry: local, policies: [composite] }));
    expect(snapshot.runtime?.policies.map((p) => p.name)).toEqual(["first", "second"]);
    expect(snapshot.capabilities[0]?.policies).toEqual(["composed(first,second)"]);
  });

  it("never evaluates a policy", () => {
    let calls = 0;
    const counting = definePolicy("counting", () => {
      calls += 1;
      return allow();
    }, { phases: ["discovery", "invocation", "execution"] });
    buildSnapshot(defineGovernance({ registry: createCapabilityRegistry({ a: procedure({ policies: [counting] }) }), policies: [counting] }));
    expect(calls).toBe(0);
  });
});
