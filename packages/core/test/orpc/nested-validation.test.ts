// ADR-001's version-coupled mapping end to end, on whichever major this leg runs (both legs run it): a real oRPC
// validation failure of a nested call, raised by that major's own `call`, is recognised and mapped by the runtime.
import { call } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { agentMeta } from "../../src/index.js";
import { ORPC_MAJOR } from "../../src/orpc/procedure.js";
import { base, build, dana, errorOf, meta } from "../runtime/pipeline-harness.js";

const SECRET = "nested-validation-sentinel-93";

const inner = base
  .input(z.object({ n: z.number() }))
  .output(z.object({ doubled: z.number() }))
  .handler(({ input }) => ({ doubled: input.n === 0 ? (SECRET as never) : input.n * 2 }));

function outer(n: unknown) {
  return base
    .meta(agentMeta(meta()))
    .handler(() => call(inner, n as { n: number }, { context: {} }));
}

describe(`a nested call's validation failure on oRPC ${ORPC_MAJOR}`, () => {
  it("SI-9: its input failure is a concealed EXECUTION_FAILED: no issue, path or value reaches the caller", async () => {
    const { runtime, ofType } = build({ defs: { op: outer({ n: SECRET }) } });
    const result = await runtime.invoke("op", undefined, { actor: dana, context: {} });
    const error = errorOf(result);
    expect(error).toMatchObject({ code: "EXECUTION_FAILED", exposeToModel: false, publicMessage: "The operation failed." });
    expect(error.details).toBeUndefined();
    expect(JSON.stringify({ result, events: ofType("capability.failed") })).not.toContain(SECRET);
  });

  it("SI-9: its output failure is OUTPUT_INVALID, generic, with the output withheld", async () => {
    const { runtime } = build({ defs: { op: outer({ n: 0 }) } });
    const result = await runtime.invoke("op", undefined, { actor: dana, context: {} });
    expect(errorOf(result)).toMatchObject({ code: "OUTPUT_INVALID", exposeToModel: false, publicMessage: "The operation failed." });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("a valid nested call completes with its output", async () => {
    const { runtime } = build({ defs: { op: outer({ n: 21 }) } });
    expect(await runtime.invoke("op", undefined, { actor: dana, context: {} })).toMatchObject({ status: "completed", output: { doubled: 42 } });
  });
});
