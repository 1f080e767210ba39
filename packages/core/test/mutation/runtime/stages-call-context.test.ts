// Raised from the mutation run: stage 11 builds the procedure's context as a new object with the caller's prototype
// and own properties (docs/architecture/spec/core.md#core-6-1). A plain context is copied by definition, never by assignment: assigning an own
// "__proto__" key (as JSON.parse produces) would re-parent the copy and hand the procedure inherited properties.
import { describe, expect, it } from "vitest";
import { base, build, dana, meta } from "../../runtime/pipeline-harness.js";
import { agentMeta } from "@orpc-agent/core";

describe("stage 11 call context", () => {
  it("keeps a JSON-parsed own __proto__ key as data: the procedure's context still inherits from Object.prototype", async () => {
    const seen: Record<string, unknown>[] = [];
    const proc = base.meta(agentMeta(meta())).handler(({ context }) => {
      seen.push(context as Record<string, unknown>);
      return "ok";
    });
    const { runtime } = build({ defs: { a: proc } });
    const context = JSON.parse('{"__proto__": {"role": "admin"}, "tenant": "t1"}') as Record<string, unknown>;
    expect(await runtime.invoke("a", undefined, { actor: dana, context })).toMatchObject({ status: "completed" });
    const [received] = seen;
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect(received!.role).toBeUndefined();
    expect(received!.tenant).toBe("t1");
    expect(Object.getPrototypeOf(context)).toBe(Object.prototype);
  });
});
