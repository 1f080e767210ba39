import {
  allow,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  type ExecutionResult,
  type SpanAttributes,
  type SpanHandle,
  type TracingAdapter,
} from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { capturedAudit, createAgentTestRuntime, fakeActor, testClock } from "../src/index.js";
import { buildShop } from "./shop.js";

function errorOf(result: ExecutionResult) {
  if (result.status !== "failed" && result.status !== "cancelled") throw new Error(`expected a failure, got ${result.status}`);
  return result.error;
}

function approvalIdOf(result: ExecutionResult): string {
  if (result.status !== "approval-required") throw new Error(`expected approval-required, got ${result.status}`);
  return result.approval.id;
}

describe("createAgentTestRuntime: options", () => {
  it("refuses both or neither of registry and governance, and policies beside a governance (JavaScript callers; the types refuse them too)", () => {
    const { registry, policies } = buildShop();
    const governance = defineGovernance({ registry, policies });
    expect(() => createAgentTestRuntime({} as never)).toThrow(TypeError);
    expect(() => createAgentTestRuntime({ registry, governance } as never)).toThrow(/exactly one of `registry`/);
    expect(() => createAgentTestRuntime({ governance, policies } as never)).toThrow(/`policies` goes with `registry`/);
    expect(() => createAgentTestRuntime(undefined as never)).toThrow(TypeError);
  });

  it("refuses an approvals value that is neither a mode nor a coordinator, and non-function sinks", () => {
    const { registry } = buildShop();
    expect(() => createAgentTestRuntime({ registry, approvals: "approve-all" as never })).toThrow(/auto-approve/);
    expect(() => createAgentTestRuntime({ registry, approvals: { get: async () => null } as never })).toThrow(TypeError);
    expect(() => createAgentTestRuntime({ registry, audit: ["not a sink"] as never })).toThrow(/sink function/);
    expect(() => createAgentTestRuntime({ registry, clock: {} as never })).toThrow(/TestClock/);
  });

  it("wraps one real runtime on the given registry and policies", () => {
    const { registry, policies } = buildShop();
    const t = createAgentTestRuntime({ registry, policies });
    expect(t.runtime.registry).toBe(registry);
    expect(t.runtime.governance.policies.map((p) => p.name)).toEqual(["blocked-actors"]);
    expect(t.defaultActor).toEqual(fakeActor());
  });
});

describe("createAgentTestRuntime: surfaces and defaults", () => {
  it("invokes and describes on surface test by default, as the default actor, with the default context", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry, context: { tenant: "acme" } });
    const result = await t.invoke("orders.get", { id: "o1" });
    expect(result).toMatchObject({ status: "completed", output: { id: "o1", tenant: "tenant:acme", by: "test-user" } });
    expect(new Set(t.audit.events().map((event) => event.surface))).toEqual(new Set(["test"]));
    expect(t.audit.events()[0]!.actor).toEqual({ id: "test-user", kind: "user" });

    const described = await t.describe();
    expect(described.map((d) => d.id)).toEqual(["orders.get", "orders.refund", "orders.cancel", "orders.search", "orders.crash", "orders.mcpTool"]);
    expect(t.audit.ofType("capabilities.discovered")[0]!.data.surface).toBe("test");
  });

  it("a per-call surface reproduces that surface's concealment: mcp cannot reach a test-only capability (audit: not-exposed)", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry });
    const result = await t.invoke("orders.get", { id: "o1" }, { surface: "mcp" });
    expect(errorOf(result).code).toBe("CAPABILITY_NOT_FOUND");
    const denied = t.audit.ofType("capability.denied");
    expect(denied.map((event) => [event.surface, event.data.reason])).toEqual([["mcp", "not-exposed"]]);
    expect((await t.describe("mcp")).map((d) => d.id)).toEqual(["orders.mcpTool"]);
    expect(await t.invoke("orders.mcpTool", {}, { surface: "mcp" })).toMatchObject({ status: "completed", output: "mcp" });
  });

  it("per-call actor, context and correlationId replace the defaults for that call only", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry, actor: fakeActor({ id: "u_default" }) });
    const other = await t.invoke("orders.get", { id: "o1" }, { actor: fakeActor({ id: "u_other" }), context: { tenant: "t2" }, correlationId: "corr_1" });
    expect(other).toMatchObject({ status: "completed", output: { by: "u_other", tenant: "tenant:t2" } });
    expect(t.audit.events().every((event) => event.correlationId === "corr_1")).toBe(true);
    t.audit.clear();
    expect(await t.invoke("orders.get", { id: "o1" })).toMatchObject({ status: "completed", output: { by: "u_default", tenant: "tenant:default" } });
    expect(t.audit.events().some((event) => event.correlationId !== undefined)).toBe(false);
  });

  it("a malformed per-call actor is governed like in production: UNAUTHENTICATED, not a default", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry });
    expect(errorOf(await t.invoke("orders.get", { id: "o1" }, { actor: null as never })).code).toBe("UNAUTHENTICATED");
  });
});

describe("createAgentTestRuntime: governance outcomes are the runtime's", () => {
  it("redacts output before it leaves, and conceals an undeclared throw while keeping its cause", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry });
    const result = await t.invoke("orders.get", { id: "o1" });
    expect(result.status === "completed" && result.output).toEqual({ id: "o1", verbose: false, tenant: "tenant:default", by: "test-user" });

    const crash = errorOf(await t.invoke("orders.crash", {}));
    expect(crash.code).toBe("EXECUTION_FAILED");
    expect(crash.exposeToModel).toBe(false);
    expect(crash.toJSON()).toEqual({ code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false });
    expect(JSON.stringify(crash)).not.toContain("hunter2");
    expect(String((crash.cause as Error).message)).toContain("hunter2");
  });

  it("runtime policies deny as in production", async () => {
    const { registry, policies } = buildShop();
    const t = createAgentTestRuntime({ registry, policies });
    const denied = errorOf(await t.invoke("orders.get", { id: "o1" }, { actor: fakeActor({ attributes: { blocked: true } }) }));
    expect([denied.code, denied.publicMessage]).toEqual(["POLICY_DENIED", "Blocked actors may not do this."]);
  });
});

describe("createAgentTestRuntime: forwarding", () => {
  it("describe forwards scope: tags narrow discovery, and an out-of-scope capability still invokes", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry });
    expect((await t.describe("test", { scope: { tags: ["money"] } })).map((d) => d.id)).toEqual(["orders.refund"]);
    expect((await t.describe("test", { scope: { ids: ["orders.crash"], tags: ["money"] } })).map((d) => d.id)).toEqual([
      "orders.refund",
      "orders.crash",
    ]);
    expect((await t.invoke("orders.get", { id: "o1" })).status).toBe("completed");
  });

  it("describe forwards inputSchemas: shared schemas are one frozen object per capability, copies are not", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry });
    const [first] = await t.describe("test", { inputSchemas: "shared" });
    const [second] = await t.describe("test", { inputSchemas: "shared" });
    const [copy] = await t.describe("test");
    expect(second!.inputSchema).toBe(first!.inputSchema);
    expect(Object.isFrozen(first!.inputSchema)).toBe(true);
    expect(copy!.inputSchema).toEqual(first!.inputSchema);
    expect(Object.isFrozen(copy!.inputSchema)).toBe(false);
  });

  it("resume forwards expectedActor and expectedSurface: a mismatch fails APPROVAL_RESUME_MISMATCH and leaves the record usable", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry });
    const approvalId = approvalIdOf(await t.invoke("orders.refund", { id: "o1", amount: 5 }));
    await t.approvals.approve(approvalId);

    expect(errorOf(await t.resume(approvalId, { expectedActor: fakeActor({ id: "u_intruder" }) })).code).toBe("APPROVAL_RESUME_MISMATCH");
    expect(errorOf(await t.resume(approvalId, { expectedSurface: "mcp" })).code).toBe("APPROVAL_RESUME_MISMATCH");
    expect((await t.approvals.get(approvalId))?.status).toBe("approved");

    const done = await t.resume(approvalId, { expectedActor: t.defaultActor, expectedSurface: "test", context: { tenant: "acme" } });
    expect(done).toMatchObject({ status: "completed", output: { refunded: 5, approvedBy: "test-approver" } });
  });

  it("a resume signal is forwarded: an aborted signal cancels before the procedure runs", async () => {
    const { registry, calls } = buildShop();
    const t = createAgentTestRuntime({ registry });
    const approvalId = approvalIdOf(await t.invoke("orders.refund", { id: "o1", amount: 5 }));
    await t.approvals.approve(approvalId);
    const controller = new AbortController();
    controller.abort();
    expect(errorOf(await t.resume(approvalId, { signal: controller.signal })).code).toBe("CANCELLED");
    expect(calls.refund).toBe(0);
  });

  it("the tracing option receives the runtime's spans", async () => {
    const spans: { name: string; attributes: SpanAttributes; status?: string }[] = [];
    const tracing: TracingAdapter = {
      startSpan(name, attributes): SpanHandle {
        const span: { name: string; attributes: SpanAttributes; status?: string } = { name, attributes: { ...attributes } };
        spans.push(span);
        return {
          setAttributes: (more) => Object.assign(span.attributes, more),
          recordError: () => {},
          end: (status) => {
            span.status = status;
          },
        };
      },
    };
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry, tracing });
    await t.invoke("orders.get", { id: "o1" });
    expect(spans.map((s) => [s.name, s.status])).toEqual([
      ["agent.capability_call", "ok"],
      ["agent.procedure_execution", "ok"],
    ]);
    expect(spans[0]!.attributes).toMatchObject({ "orpc_agent.surface": "test", "orpc_agent.outcome": "completed" });
  });
});

describe("createAgentTestRuntime: a given governance, coordinator and sinks are the ones used", () => {
  it("evaluates the governance's own policies, stores requests in the given coordinator and feeds every sink", async () => {
    const { registry } = buildShop();
    const evaluated: string[] = [];
    const counting = definePolicy("counting", (req) => {
      evaluated.push(req.capability.id);
      return allow();
    });
    const governance = defineGovernance({ registry, policies: [counting] });
    const clock = testClock();
    const coordinator = createInMemoryApprovalCoordinator({ now: clock.now });
    const first = capturedAudit();
    const second = capturedAudit();
    const t = createAgentTestRuntime({ governance, approvals: coordinator, audit: [first, second], clock });

    expect(t.runtime.governance).toBe(governance);
    expect((await t.invoke("orders.get", { id: "o1" })).status).toBe("completed");
    const approvalId = approvalIdOf(await t.invoke("orders.refund", { id: "o1", amount: 9 }));
    expect(evaluated).toEqual(["orders.get", "orders.refund"]);
    expect((await coordinator.get(approvalId))?.status).toBe("pending");
    expect((await coordinator.list()).map((record) => record.id)).toEqual([approvalId]);

    await t.approvals.approve(approvalId, fakeActor({ id: "u_manager" }));
    expect((await coordinator.get(approvalId))?.decision?.approver.id).toBe("u_manager");
    expect(t.audit.types()).toContain("capability.approved");
    expect(first.types()).toEqual(t.audit.types());
    expect(second.types()).toEqual(t.audit.types());
  });

  it("a single extra sink works too, installed after t.audit", async () => {
    const order: string[] = [];
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry, audit: (event) => void order.push(`extra:${event.type}`) });
    await t.invoke("orders.get", { id: "o1" });
    expect(order).toEqual(t.audit.types().map((type) => `extra:${type}`));
  });
});
