// A tool name that is an Object.prototype key would be a silently missing tool in a tool set object (issue 22, item 8).
import { createCapabilityRegistry } from "@orpc-agent/core";
import { toAISDKTools } from "@orpc-agent/ai-sdk";
import { describe, expect, it } from "vitest";
import { base, build, dana, meta } from "./support/runtime.js";

const RESERVED = ["__proto__", "constructor", "hasOwnProperty", "toString"];

describe("tool names that are prototype keys fail the build", () => {
  it("meta.adapters.*.toolName naming a prototype key is a registry build error", () => {
    for (const name of RESERVED) {
      for (const surface of ["aiSdk", "mcp"] as const) {
        const procedure = base.meta({ agent: meta({ adapters: { [surface]: { toolName: name } } }) }).handler(() => "ok");
        expect(() => createCapabilityRegistry({ op: procedure }), `${surface}: ${name}`).toThrow(/reserved|prototype/i);
      }
    }
  });

  it("toolNaming returning a prototype key fails toAISDKTools instead of dropping the tool", async () => {
    for (const name of RESERVED) {
      const procedure = base.meta({ agent: meta() }).handler(() => "ok");
      const { runtime } = build({ defs: { op: procedure } });
      await expect(toAISDKTools(runtime, { actor: dana, context: {}, toolNaming: () => name } as never), name).rejects.toThrow(/reserved|prototype/i);
    }
  });
});
