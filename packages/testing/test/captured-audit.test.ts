import type { AgentAuditEvent } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { capturedAudit, createAgentTestRuntime } from "../src/index.js";
import { buildShop } from "./shop.js";

function event(type: AgentAuditEvent["type"], capabilityId: string): AgentAuditEvent {
  return {
    type,
    timestamp: new Date("2026-01-01T00:00:00.000Z"),
    surface: "test",
    actor: { id: "u_1", kind: "user" },
    capabilityId,
    data: type === "capability.requested" ? {} : { durationMs: 1, attempts: 1 },
  } as AgentAuditEvent;
}

describe("capturedAudit", () => {
  it("is a synchronous sink keeping events in emission order", () => {
    const audit = capturedAudit();
    audit(event("capability.requested", "a"));
    expect(audit.types()).toEqual(["capability.requested"]);
    audit(event("capability.completed", "a"));
    audit(event("capability.requested", "b"));
    expect(audit.events().map((e) => [e.type, e.capabilityId])).toEqual([
      ["capability.requested", "a"],
      ["capability.completed", "a"],
      ["capability.requested", "b"],
    ]);
    expect(audit.ofType("capability.requested").map((e) => e.capabilityId)).toEqual(["a", "b"]);
    expect(audit.ofType("capability.denied")).toEqual([]);
  });

  it("returns copies: mutating a returned list or event never changes what the next read sees", () => {
    const audit = capturedAudit();
    audit(event("capability.completed", "a"));
    const first = audit.events();
    first.push(event("capability.requested", "x"));
    (first[0] as { capabilityId?: string }).capabilityId = "mutated";
    first[0]!.timestamp.setTime(0);
    (first[0]!.data as { attempts: number }).attempts = 99;
    audit.ofType("capability.completed")[0]!.actor.id = "mutated";

    const again = audit.events();
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ capabilityId: "a", actor: { id: "u_1" }, data: { attempts: 1 } });
    expect(again[0]!.timestamp.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(again[0]).not.toBe(first[0]);
  });

  it("clear forgets everything captured so far and keeps capturing", () => {
    const audit = capturedAudit();
    audit(event("capability.requested", "a"));
    audit.clear();
    expect(audit.events()).toEqual([]);
    audit(event("capability.requested", "b"));
    expect(audit.types()).toEqual(["capability.requested"]);
  });

  it("sees a runtime's events as soon as invoke returns, without draining", async () => {
    const { registry } = buildShop();
    const t = createAgentTestRuntime({ registry });
    await t.invoke("orders.get", { id: "o1" });
    expect(t.audit.types()).toEqual(["capability.requested", "capability.started", "capability.completed"]);
    const [requested] = t.audit.ofType("capability.requested");
    expect(requested!.data).toEqual({ sideEffect: "read", risk: "low" });
  });
});
