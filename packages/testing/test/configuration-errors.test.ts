// Wiring mistakes in createAgentTestRuntime are core's branded ConfigurationError (still a TypeError), as in the
// adapters; t.invoke's per-call checks stay plain TypeErrors.
import { ConfigurationError } from "@orpc-agent/core/adapter";
import { describe, expect, it } from "vitest";
import { createAgentTestRuntime } from "../src/index.js";
import { buildShop } from "./shop.js";

describe("createAgentTestRuntime configuration errors", () => {
  it("no source, both sources, a bad approvals option and an unknown override are ConfigurationErrors", () => {
    const { registry } = buildShop();
    const attempts = [
      () => createAgentTestRuntime(undefined as never),
      () => createAgentTestRuntime({ registry, governance: {} } as never),
      () => createAgentTestRuntime({ registry, approvals: "sometimes" as never }),
      () => createAgentTestRuntime({ registry, overrides: { "no.such.capability": () => null } }),
    ];
    for (const attempt of attempts) {
      let thrown: unknown;
      try {
        attempt();
      } catch (error) {
        thrown = error;
      }
      expect(ConfigurationError.isInstance(thrown)).toBe(true);
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toMatch(/^createAgentTestRuntime/);
    }
  });
});
