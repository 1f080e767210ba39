import { describe, expect, it } from "vitest";
import type { AgentMeta } from "../../src/capability/types.js";
import { defaultToolName, resolveToolName } from "../../src/registry/tool-name.js";

const meta: AgentMeta = { description: "d", expose: { aiSdk: true, mcp: true }, sideEffect: "read", risk: "low" };

describe("defaultToolName", () => {
  it("replaces every . with _", () => {
    expect(defaultToolName("orders.refund")).toBe("orders_refund");
    expect(defaultToolName("a.b.c.d")).toBe("a_b_c_d");
    expect(defaultToolName("ping")).toBe("ping");
    expect(defaultToolName("already_snake.x")).toBe("already_snake_x");
  });
});

describe("resolveToolName precedence", () => {
  const naming = (id: string) => `app__${id}`;

  it("meta.adapters.<surface>.toolName wins over toolNaming and the default", () => {
    const capability = { id: "orders.refund", meta: { ...meta, adapters: { aiSdk: { toolName: "refund" }, mcp: { toolName: "refund-mcp" } } } };
    expect(resolveToolName(capability, "aiSdk", naming)).toBe("refund");
    expect(resolveToolName(capability, "mcp", naming)).toBe("refund-mcp");
  });

  it("toolNaming(id) wins over the default", () => {
    expect(resolveToolName({ id: "orders.refund", meta }, "mcp", naming)).toBe("app__orders.refund");
  });

  it("defaultToolName applies when nothing overrides", () => {
    expect(resolveToolName({ id: "orders.refund", meta }, "aiSdk")).toBe("orders_refund");
  });

  it("an override for the other surface is ignored", () => {
    const capability = { id: "orders.refund", meta: { ...meta, adapters: { mcp: { toolName: "refund-mcp" } } } };
    expect(resolveToolName(capability, "aiSdk")).toBe("orders_refund");
    expect(resolveToolName(capability, "aiSdk", naming)).toBe("app__orders.refund");
  });
});
