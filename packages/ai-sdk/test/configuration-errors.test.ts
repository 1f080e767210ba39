// Build-time mistakes are core's branded ConfigurationError (still a TypeError), recognisable across module copies.
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "@orpc-agent/core/adapter";
import { toAISDKTools } from "../src/index.js";
import { buildApp, context, dana } from "./support/app.js";

describe("toAISDKTools configuration errors", () => {
  it("a malformed actor, a bad option and a tool-name collision are ConfigurationErrors", async () => {
    const { runtime } = buildApp();
    const attempts = [
      toAISDKTools(runtime, { actor: { id: "", kind: "user" }, context }),
      toAISDKTools(runtime, { actor: dana, context, filter: "x" as never }),
      toAISDKTools(runtime, { actor: dana, context, toolNaming: () => "same" }),
    ];
    for (const attempt of attempts) {
      const error = await attempt.then(() => undefined, (thrown: unknown) => thrown);
      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect(error).toBeInstanceOf(TypeError);
    }
  });
});
