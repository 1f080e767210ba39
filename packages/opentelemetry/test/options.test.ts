import { trace } from "@opentelemetry/api";
import { ConfigurationError } from "@orpc-agent/core/adapter";
import { describe, expect, it } from "vitest";
import { createOpenTelemetryTracing } from "../src/index.js";

describe("createOpenTelemetryTracing options", () => {
  it("accepts no options, an empty object, a tracer and a boolean actorIdAttribute", () => {
    for (const options of [undefined, {}, { tracer: trace.getTracer("app") }, { actorIdAttribute: true }, { actorIdAttribute: false }]) {
      expect(typeof createOpenTelemetryTracing(options).startSpan).toBe("function");
    }
  });

  it.each([
    ["a non-object", "tracer", /options must be an object/],
    ["null", null, /options must be an object/],
    ["an array", [], /options must be an object/],
    ["a misspelt key", { actorId: true }, /unknown option "actorId"/],
    ["a tracer without startSpan", { tracer: {} }, /`tracer` must be an OpenTelemetry Tracer/],
    ["a non-boolean actorIdAttribute", { actorIdAttribute: "yes" }, /`actorIdAttribute` must be a boolean/],
  ])("rejects %s with a ConfigurationError (a TypeError) that says what to pass", (_label, options, message) => {
    expect(() => createOpenTelemetryTracing(options as never)).toThrow(TypeError);
    let thrown: unknown;
    try {
      createOpenTelemetryTracing(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(ConfigurationError.isInstance(thrown)).toBe(true);
    expect(() => createOpenTelemetryTracing(options as never)).toThrow(message);
  });
});
