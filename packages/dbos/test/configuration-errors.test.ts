// A wiring mistake in createDBOSCapabilitySteps is core's branded ConfigurationError (still a TypeError), as in the
// other adapters; it is thrown at construction, before DBOS is touched.
import { ConfigurationError } from "@orpc-agent/core/adapter";
import { describe, expect, it } from "vitest";
import { createDBOSCapabilitySteps } from "../src/index.js";

describe("createDBOSCapabilitySteps configuration errors", () => {
  it("missing options and a service that is not an invocation service are ConfigurationErrors", () => {
    for (const options of [undefined, { service: {} }]) {
      let thrown: unknown;
      try {
        createDBOSCapabilitySteps(options as never);
      } catch (error) {
        thrown = error;
      }
      expect(ConfigurationError.isInstance(thrown)).toBe(true);
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toMatch(/^createDBOSCapabilitySteps/);
    }
  });
});
