import { CapabilityError, defineGovernance, type ExecutionResult } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { createAgentTestRuntime, fakeActor } from "../src/index.js";
import { buildShop } from "./shop.js";

function errorOf(result: ExecutionResult) {
  if (result.status !== "failed" && result.status !== "cancelled") throw new Error(`expected a failure, got ${result.status}`);
  return result.error;
}

describe("overrides", () => {
  it("replace only the handler: middleware still runs and the stub sees parsed input and the agent context", async () => {
    const { registry, calls } = buildShop();
    const seen: unknown[] = [];
    const t = createAgentTestRuntime({
      registry,
      context: { tenant: "acme" },
      overrides: {
        "orders.get": ({ input, context }) => {
          seen.push(input);
          return { stubbed: true, tenant: context.tenantName, actor: context.agent.actor.id, capability: context.agent.capabilityId };
        },
      },
    });
    const result = await t.invoke("orders.get", { id: "o1" });
    expect(result).toMatchObject({ status: "completed", output: { stubbed: true, tenant: "tenant:acme", actor: "test-user", capability: "orders.get" } });
    // Parsed by the procedure's own schema: the default was applied before the stub ran.
    expect(seen).toEqual([{ id: "o1", verbose: false }]);
    expect(calls.get).toBe(0);

    // The middleware's refusal still reaches the agent path.
    expect(errorOf(await t.invoke("orders.get", { id: "o1" }, { context: { tenant: "closed" } })).code).toBe("FORBIDDEN");
    expect(seen).toHaveLength(1);
  });

  it("keep meta, schemas, policies, approval gates and redaction", async () => {
    const { registry, policies, calls } = buildShop();
    const t = createAgentTestRuntime({
      registry,
      policies,
      overrides: {
        "orders.get": () => ({ id: "stub", note: "must be redacted" }),
        "orders.refund": () => ({ refunded: "stub" }),
      },
    });
    const described = await t.describe();
    expect(described.find((d) => d.id === "orders.refund")).toMatchObject({ description: "Refund an order.", requiresApproval: true, tags: ["money"] });
    expect(described.map((d) => d.id)).toEqual(registry.ids());

    expect(errorOf(await t.invoke("orders.get", { id: 42 })).code).toBe("INPUT_INVALID");
    expect(errorOf(await t.invoke("orders.get", { id: "o1" }, { actor: fakeActor({ attributes: { blocked: true } }) })).code).toBe("POLICY_DENIED");
    expect(await t.invoke("orders.get", { id: "o1" })).toEqual(expect.objectContaining({ status: "completed", output: { id: "stub" } }));

    const pending = await t.invoke("orders.refund", { id: "o1", amount: 5 });
    expect(pending.status).toBe("approval-required");
    expect(calls.refund).toBe(0);
  });

  it("a stub can throw a CapabilityError to mark a failure retryable, as a real handler can", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({
      registry,
      overrides: { "orders.crash": () => Promise.reject(new CapabilityError({ code: "EXECUTION_FAILED", retryable: true, exposeToModel: true, publicMessage: "Upstream busy." })) },
    });
    const error = errorOf(await t.invoke("orders.crash", {}));
    expect(error.toJSON()).toEqual({ code: "EXECUTION_FAILED", message: "Upstream busy.", retryable: true });
  });

  it("keep the given governance's policy objects and the registry order", async () => {
    const { registry, policies } = buildShop();
    const governance = defineGovernance({ registry, policies });
    const t = createAgentTestRuntime({ governance, overrides: { "orders.crash": () => "fine" } });
    expect(t.runtime.governance).not.toBe(governance);
    expect(t.runtime.governance.policies).toEqual(governance.policies);
    expect(t.runtime.registry.ids()).toEqual(registry.ids());
    expect(t.runtime.registry.get("orders.get")!.procedure).toBe(registry.get("orders.get")!.procedure);
    expect(await t.invoke("orders.crash", {})).toMatchObject({ status: "completed", output: "fine" });
  });

  it("an unknown id, or a value that is not a function, throws at construction", () => {
    const { registry } = buildShop();
    expect(() => createAgentTestRuntime({ registry, overrides: { "orders.nope": () => 1 } })).toThrow(/"orders\.nope", which is not a capability/);
    expect(() => createAgentTestRuntime({ registry, overrides: { "orders.get": "stub" as never } })).toThrow(/must be a handler function/);
    expect(() => createAgentTestRuntime({ registry, overrides: [] as never })).toThrow(TypeError);
  });
});
