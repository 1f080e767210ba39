import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  requireApproval,
  allow,
  type AgentMeta,
} from "../../../src/index.js";
import { createInMemoryInvocationJournal, createInvocationService, type InvocationServiceOptions } from "../../../src/server/index.js";
import { dana, mallory, newInvocationId } from "../remote-fixture.js";

const base = agentProcedure(os);
const meta = (over: Partial<AgentMeta> = {}): AgentMeta => ({
  description: "Refund an order.",
  expose: { aiSdk: true, mcp: true },
  sideEffect: "write",
  risk: "high",
  tags: ["b", "a"],
  ...over,
});
const schema = z.object({ orderId: z.string() });
let handled = 0;
const registryOf = (m: AgentMeta = meta(), s: z.ZodType = schema) =>
  createCapabilityRegistry({
    orders: {
      refund: base.input(s).meta(agentMeta(m)).handler(() => ++handled),
      note: base.input(z.object({ text: z.string() })).meta(agentMeta(meta({ description: "Note.", sideEffect: "read", discovery: "contextual" }))).handler(() => "ok"),
    },
  });
const serviceOf = (o: Partial<InvocationServiceOptions> = {}) =>
  createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "shop", revision: "r1", ...o });
const runtimeOf = (registry = registryOf(), policies = [] as ReturnType<typeof definePolicy>[]) =>
  createAgentRuntime({ governance: defineGovernance({ registry, policies }), approvals: { coordinator: createInMemoryApprovalCoordinator() }, audit: () => {} });

async function digestOf(o: { service?: Partial<InvocationServiceOptions>; meta?: AgentMeta; schema?: z.ZodType; surface?: "aiSdk" | "mcp"; actor?: typeof dana } = {}) {
  const listing = await serviceOf(o.service).describe(runtimeOf(registryOf(o.meta, o.schema)), {
    actor: o.actor ?? dana,
    context: {},
    surface: o.surface ?? "aiSdk",
  });
  return listing.descriptors.find((d) => d.id === "orders.refund")!.digest;
}

describe("descriptor digests (distributed.md §2.1, §10 G1–G5)", () => {
  it("S6: describe returns tool names, digests and idempotency, contextual: true exactly on contextual capabilities", async () => {
    const listing = await serviceOf({ toolNaming: { mcp: (id) => `shop.${id}` } }).describe(runtimeOf(), { actor: dana, context: {}, surface: "aiSdk" });
    expect(listing).toMatchObject({ protocol: 1, namespace: "shop", surface: "aiSdk" });
    expect(listing.catalogDigest).toMatch(/^d1\.[A-Za-z0-9_-]{43}$/);
    const [refund, note] = listing.descriptors;
    expect(refund).toMatchObject({ id: "orders.refund", idempotent: false, toolNames: { aiSdk: "orders_refund", mcp: "shop.orders.refund" } });
    expect(refund!.digest).toMatch(/^d1\.[A-Za-z0-9_-]{43}$/);
    expect("contextual" in refund!).toBe(false);
    expect(note).toMatchObject({ id: "orders.note", contextual: true });
    expect(refund!.inputSchema).toMatchObject({ type: "object", properties: { orderId: { type: "string" } } });
  });

  it("G1: one capability has one digest for every actor, process and restart", async () => {
    const a = await digestOf({ actor: dana });
    const b = await digestOf({ actor: mallory });
    const c = await digestOf(); // a new registry, runtime and service: what a restarted process builds
    expect(new Set([a, b, c]).size).toBe(1);
    // Two fresh processes, as two replicas or a restart would be.
    const child = fileURLToPath(new URL("./digest-child.ts", import.meta.url));
    const root = fileURLToPath(new URL("../../../../../", import.meta.url));
    const run = async (actorId: string) =>
      JSON.parse((await promisify(execFile)(process.execPath, ["--import", "tsx", child, actorId], { cwd: root })).stdout) as string[];
    const [first, second] = await Promise.all([run("u_dana"), run("u_mallory")]);
    expect(first).toEqual([a]);
    expect(second).toEqual([a]);
  }, 30_000);

  it("G2: changes with revision, namespace, surface, description, schema, tool name and discovery mode", async () => {
    const reference = await digestOf();
    const variants = [
      await digestOf({ service: { revision: "r2" } }),
      await digestOf({ service: { namespace: "other" } }),
      await digestOf({ surface: "mcp" }),
      await digestOf({ meta: meta({ description: "Refund an order fully." }) }),
      await digestOf({ schema: z.object({ orderId: z.string(), cents: z.number() }) }),
      await digestOf({ meta: meta({ adapters: { aiSdk: { toolName: "refund" } } }) }),
      await digestOf({ service: { toolNaming: { mcp: (id) => `x_${id.replaceAll(".", "_")}` } } }),
      await digestOf({ meta: meta({ discovery: "contextual" }) }),
      await digestOf({ meta: meta({ approval: { required: true } }) }),
      await digestOf({ meta: meta({ idempotent: true }) }),
    ];
    for (const digest of variants) expect(digest).not.toBe(reference);
    expect(new Set(variants).size).toBe(variants.length);
    // Tag order is not meaning.
    expect(await digestOf({ meta: meta({ tags: ["a", "b"] }) })).toBe(reference);
  });

  it("G3: a per-actor require-approval at discovery changes requiresApproval, never the digest", async () => {
    const gated = definePolicy("gate-mallory", (req) => (req.actor.id === mallory.id ? requireApproval({ reason: "watch" }) : allow()), {
      phases: ["discovery"],
    });
    const rt = runtimeOf(registryOf(), [gated]);
    const service = serviceOf();
    const forDana = await service.describe(rt, { actor: dana, context: {}, surface: "aiSdk" });
    const forMallory = await service.describe(rt, { actor: mallory, context: {}, surface: "aiSdk" });
    expect(forDana.descriptors[0]!.requiresApproval).toBeUndefined();
    expect(forMallory.descriptors[0]!.requiresApproval).toBe(true);
    expect(forMallory.descriptors[0]!.digest).toBe(forDana.descriptors[0]!.digest);
    expect(forMallory.catalogDigest).not.toBe(forDana.catalogDigest);
  });

  it("D-5 / G4: a stale expectedDigest settles DESCRIPTOR_STALE without entering the runtime; a replay ignores it", async () => {
    const events: string[] = [];
    const audit: unknown[] = [];
    const service = serviceOf({ onEvent: (e) => void events.push(e.type) });
    const rt = createAgentRuntime({ governance: defineGovernance({ registry: registryOf() }), approvals: { coordinator: createInMemoryApprovalCoordinator() }, audit: (e) => void audit.push(e) });
    const before = handled;
    const invocationId = newInvocationId();
    const o = { actor: dana, context: {}, surface: "aiSdk" as const, invocationId, expectedDigest: "d1.stale" };
    const stale = await service.invoke(rt, "orders.refund", { orderId: "o" }, o);
    expect(stale).toEqual({
      protocol: 1,
      invocationId,
      executionId: "",
      replayed: false,
      status: "failed",
      error: { code: "DESCRIPTOR_STALE", message: "The capability changed; refresh the tool list.", retryable: false },
    });
    expect(audit).toEqual([]);
    expect(handled).toBe(before);
    expect(events).toEqual(["claimed", "stale_descriptor"]);
    const current = (await service.describe(rt, { actor: dana, context: {}, surface: "aiSdk" })).descriptors[0]!.digest;
    expect(await service.invoke(rt, "orders.refund", { orderId: "o" }, { ...o, expectedDigest: current })).toEqual({ ...stale, replayed: true });
  });

  it("G4 / SI-8: for an unknown or unexposed capability the runtime's concealed answer stands, whatever the digest", async () => {
    const service = serviceOf();
    const rt = runtimeOf();
    const unknown = await service.invoke(rt, "orders.nope", {}, { actor: dana, context: {}, surface: "aiSdk", invocationId: newInvocationId(), expectedDigest: "d1.x" });
    const unexposed = await service.invoke(rt, "orders.refund", { orderId: "o" }, { actor: dana, context: {}, surface: "workflow", invocationId: newInvocationId(), expectedDigest: "d1.x" });
    for (const r of [unknown, unexposed]) {
      expect(r).toMatchObject({ status: "failed", error: { code: "CAPABILITY_NOT_FOUND", message: "Capability not found.", retryable: false } });
    }
  });

  it("D-5 / G5: a matching digest skips no check: policies, validation and approval still apply", async () => {
    const service = serviceOf();
    const gated = registryOf(meta({ approval: { required: true } }));
    const rt = runtimeOf(gated);
    const digest = (await service.describe(rt, { actor: dana, context: {}, surface: "aiSdk" })).descriptors[0]!.digest;
    const o = (invocationId: string) => ({ actor: dana, context: {}, surface: "aiSdk" as const, invocationId, expectedDigest: digest });
    expect(await service.invoke(rt, "orders.refund", { orderId: 5 }, o(newInvocationId()))).toMatchObject({ error: { code: "INPUT_INVALID" } });
    expect((await service.invoke(rt, "orders.refund", { orderId: "o" }, o(newInvocationId()))).status).toBe("approval-required");
  });
});
