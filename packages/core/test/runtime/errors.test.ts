import { ORPCError, ValidationError } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { agentMeta, CapabilityError, definePolicy, deny, type AgentAuditEvent } from "../../src/index.js";
import { ORPC_MAJOR } from "../../src/orpc/procedure.js";
import { base, build, dana, errorOf, meta } from "./pipeline-harness.js";

const GENERIC = { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false };
const SECRET = "zz-secret-cause-text-4711";

/** Every property of an error a caller could serialize, plus its message and String(). */
function visibleText(error: CapabilityError): string {
  return JSON.stringify({ json: error, message: error.message, str: String(error), public: error.publicMessage, details: error.details, spread: { ...error } });
}

function throwing(thrown: () => unknown) {
  return base.meta(agentMeta(meta())).handler(() => {
    throw thrown();
  });
}

describe("internals never reach models (SI-9)", () => {
  it("SI-9: an undeclared throw is EXECUTION_FAILED, not exposed, generic, with the thrown value kept as cause", async () => {
    const boom = new Error(`db password is ${SECRET}`);
    const { runtime, ofType } = build({ defs: { op: throwing(() => boom) } });
    const result = await runtime.invoke("op", undefined, { actor: dana, context: {} });
    const error = errorOf(result);

    expect(error).toBeInstanceOf(CapabilityError);
    expect(error).toMatchObject({ code: "EXECUTION_FAILED", stage: "execution", exposeToModel: false, retryable: false, publicMessage: "The operation failed." });
    expect(error.message).toBe("EXECUTION_FAILED: The operation failed.");
    expect(error.cause).toBe(boom);
    expect(error.toJSON()).toEqual(GENERIC);
    expect(visibleText(error)).not.toContain(SECRET);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(JSON.stringify(ofType("capability.failed"))).not.toContain(SECRET);
  });

  it("SI-9: non-Error throws (strings, objects) are concealed the same way", async () => {
    for (const value of [SECRET, { secret: SECRET }, 42]) {
      const { runtime } = build({ defs: { op: throwing(() => value) } });
      const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
      expect(error.code).toBe("EXECUTION_FAILED");
      expect(error.exposeToModel).toBe(false);
      expect(error.cause).toBe(value);
      expect(visibleText(error)).not.toContain(SECRET);
    }
  });

  it("SI-9: a declared .errors() entry thrown through errors.X() is exposed with its message", async () => {
    const shop = base
      .errors({ OUT_OF_STOCK: { message: "That item is out of stock." } })
      .meta(agentMeta(meta()))
      .handler(({ errors }) => {
        throw errors.OUT_OF_STOCK();
      });
    const { runtime } = build({ defs: { shop } });
    const error = errorOf(await runtime.invoke("shop", undefined, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "EXECUTION_FAILED", exposeToModel: true, publicMessage: "That item is out of stock.", retryable: false });
    expect(error.cause).toBeInstanceOf(ORPCError);
    expect(error.toJSON()).toEqual({ code: "EXECUTION_FAILED", message: "That item is out of stock.", retryable: false });
  });

  it("SI-9: ORPCError INTERNAL_SERVER_ERROR is concealed even with a message", async () => {
    const thrown = new ORPCError("INTERNAL_SERVER_ERROR", { message: `stack: ${SECRET}` });
    const { runtime } = build({ defs: { op: throwing(() => thrown) } });
    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "EXECUTION_FAILED", exposeToModel: false, publicMessage: "The operation failed." });
    expect(error.cause).toBe(thrown);
    expect(error.toJSON()).toEqual(GENERIC);
    expect(visibleText(error)).not.toContain(SECRET);
  });

  it("SI-9: POLICY_FAILED has the generic shape and no cause text", async () => {
    const broken = definePolicy("broken", () => {
      throw new Error(SECRET);
    });
    const { runtime } = build({ defs: { op: base.meta(agentMeta(meta())).handler(() => "ok") }, policies: [broken] });
    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "POLICY_FAILED", exposeToModel: false, publicMessage: "The operation failed.", retryable: false });
    expect(error.toJSON()).toEqual(GENERIC);
    expect(visibleText(error)).not.toContain(SECRET);
  });

  it("SI-9: OUTPUT_INVALID withholds the output, is generic, and the failed event says the procedure ran", async () => {
    const bad = base
      .output(z.object({ ok: z.boolean() }))
      .meta(agentMeta(meta()))
      .handler(() => ({ ok: SECRET }) as never);
    const { runtime, ofType } = build({ defs: { bad } });
    const result = await runtime.invoke("bad", undefined, { actor: dana, context: {} });
    const error = errorOf(result);

    expect(error).toMatchObject({ code: "OUTPUT_INVALID", stage: "output-validation", exposeToModel: false, retryable: false, publicMessage: "The operation failed." });
    expect(error.toJSON()).toEqual(GENERIC);
    expect(result).toMatchObject({ status: "failed", effectStatus: "unknown" });
    expect("output" in result).toBe(false);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(visibleText(error)).not.toContain(SECRET);
    expect(ofType("capability.failed").map((e) => e.data)).toEqual([
      { code: "OUTPUT_INVALID", stage: "output-validation", retryable: false, attempts: 1, executedBeforeFailure: true, effectStatus: "unknown" },
    ]);
  });

  it("SI-9: AUDIT_UNAVAILABLE from a strict started write is generic, keeps the sink error as cause, and the procedure never runs", async () => {
    let ran = false;
    const sinkError = new Error(SECRET);
    const op = base.meta(agentMeta(meta())).handler(() => {
      ran = true;
      return "ok";
    });
    const seen: AgentAuditEvent[] = [];
    const { runtime } = build({
      defs: { op },
      audit: {
        strict: true,
        sinks: [
          (e) => {
            seen.push(e);
            if (e.type === "capability.started") return Promise.reject(sinkError);
          },
        ],
        onSinkError: () => {},
      },
    });
    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "AUDIT_UNAVAILABLE", exposeToModel: false, publicMessage: "The operation failed." });
    expect(error.cause).toBe(sinkError);
    // Generic, but still transient: nothing ran, so the model may try again (issue 34 item 3).
    expect(error.toJSON()).toEqual({ ...GENERIC, retryable: true });
    expect(visibleText(error)).not.toContain(SECRET);
    expect(ran).toBe(false);
    expect(seen.map((e) => e.type)).toContain("capability.failed");
  });

  it("SI-9: the model serialization carries details only for INPUT_INVALID", async () => {
    const strict = base
      .input(z.object({ n: z.number() }))
      .meta(agentMeta(meta()))
      .handler(() => "ok");
    const { runtime } = build({
      defs: { strict },
      policies: [definePolicy("no", () => deny("APP_CODE", "Denied for a reason."))],
    });
    const invalid = errorOf(await runtime.invoke("strict", { n: "x" }, { actor: dana, context: {} }));
    expect(invalid.toJSON()).toEqual({ code: "INPUT_INVALID", message: "Input validation failed.", retryable: false, details: invalid.details });
    expect(invalid.details).toEqual({ issues: [{ path: ["n"], message: expect.any(String) }] });

    const denied = errorOf(await runtime.invoke("strict", { n: 1 }, { actor: dana, context: {} }));
    expect(denied.details).toEqual({ policy: "no", code: "APP_CODE" });
    expect(denied.toJSON()).toEqual({ code: "POLICY_DENIED", message: "Denied for a reason.", retryable: false });
    expect(Object.keys(denied.toJSON())).not.toContain("details");
  });

  it("SI-9: INPUT_INVALID issues have paths and messages but never the offending values", async () => {
    const strict = base
      .input(z.object({ email: z.email(), count: z.number().int(), nested: z.object({ kind: z.enum(["a", "b"]) }), tags: z.array(z.number()) }))
      .meta(agentMeta(meta()))
      .handler(() => "ok");
    const { runtime, events } = build({ defs: { strict } });
    const result = await runtime.invoke(
      "strict",
      { email: `${SECRET}-mail`, count: `${SECRET}-count`, nested: { kind: `${SECRET}-kind` }, tags: [1, `${SECRET}-tag`] },
      { actor: dana, context: {} },
    );
    const error = errorOf(result);

    expect(error).toMatchObject({ code: "INPUT_INVALID", stage: "input-validation", exposeToModel: true });
    const issues = (error.details as { issues: { path: string[]; message: string }[] }).issues;
    expect(issues.map((i) => i.path)).toEqual([["email"], ["count"], ["nested", "kind"], ["tags", "1"]]);
    for (const issue of issues) {
      expect(Object.keys(issue).sort()).toEqual(["message", "path"]);
      expect(typeof issue.message).toBe("string");
      expect(issue.message.length).toBeGreaterThan(0);
    }
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect(visibleText(error)).not.toContain(SECRET);
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });
});

describe("stage-11 error mapping (core.md §6.2)", () => {
  function viaMiddleware(thrown: () => unknown) {
    let handlerRan = false;
    const procedure = base
      .use(() => {
        throw thrown();
      })
      .meta(agentMeta(meta()))
      .handler(() => {
        handlerRan = true;
        return "ok";
      });
    return { procedure, ran: () => handlerRan };
  }

  it("maps UNAUTHORIZED to UNAUTHENTICATED, with its message as the public message", async () => {
    const thrown = new ORPCError("UNAUTHORIZED", { message: "Your session expired." });
    const target = viaMiddleware(() => thrown);
    const { runtime } = build({ defs: { op: target.procedure } });
    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "UNAUTHENTICATED", stage: "authentication", publicMessage: "Your session expired.", exposeToModel: true, retryable: false });
    expect(error.cause).toBe(thrown);
    expect(target.ran()).toBe(false);
  });

  it("maps FORBIDDEN to FORBIDDEN with its message", async () => {
    const { runtime } = build({ defs: { op: viaMiddleware(() => new ORPCError("FORBIDDEN", { message: "Managers only." })).procedure } });
    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "FORBIDDEN", stage: "authorization", publicMessage: "Managers only.", exposeToModel: true });
    expect(error.toJSON()).toEqual({ code: "FORBIDDEN", message: "Managers only.", retryable: false });
  });

  it("maps other client-error (4xx) ORPCError codes to an exposed EXECUTION_FAILED carrying their message", async () => {
    // oRPC 2 errors carry no status (the handler derives it from the code), so a custom 4xx code exists on 1.x only.
    const custom = ORPC_MAJOR === 1 ? "CUSTOM_APP_CODE" : "UNPROCESSABLE_CONTENT";
    for (const code of ["NOT_FOUND", "CONFLICT", "TOO_MANY_REQUESTS", custom]) {
      const thrown = new ORPCError(code, { message: `message for ${code}`, ...(code === "CUSTOM_APP_CODE" ? { status: 422 } : {}) });
      const { runtime } = build({ defs: { op: viaMiddleware(() => thrown).procedure } });
      const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
      expect(error).toMatchObject({ code: "EXECUTION_FAILED", exposeToModel: true, publicMessage: `message for ${code}`, retryable: false });
      expect(error.cause).toBe(thrown);
    }
  });

  it("SI-9: conceals an undeclared server-error (5xx) ORPCError, whatever its code: it reports internals", async () => {
    for (const thrown of [new ORPCError("BAD_GATEWAY", { message: "db.internal:5432" }), new ORPCError("CUSTOM_APP_CODE", { message: "db.internal:5432" })]) {
      const { runtime } = build({ defs: { op: viaMiddleware(() => thrown).procedure } });
      const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
      expect(error).toMatchObject({ code: "EXECUTION_FAILED", exposeToModel: false, publicMessage: "The operation failed." });
      expect(error.cause).toBe(thrown);
    }
  });

  it("passes a thrown CapabilityError through unchanged (how a handler marks an error retryable)", async () => {
    const thrown = new CapabilityError({ code: "EXECUTION_FAILED", retryable: true, exposeToModel: true, publicMessage: "Upstream busy." });
    const { runtime } = build({ defs: { op: throwing(() => thrown) } });
    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error).toBe(thrown);
    expect(error.toJSON()).toEqual({ code: "EXECUTION_FAILED", message: "Upstream busy.", retryable: true });
  });

  it("SI-6: the input schema runs once, at stage 5; oRPC's call does not validate the input a second time", async () => {
    let validations = 0;
    // A refine that would fail a second run: the handler still runs, on the value stage 5 validated.
    const flaky = base
      .input(z.object({ code: z.string().refine(() => validations++ === 0, "Code no longer valid.") }))
      .meta(agentMeta(meta()))
      .handler(({ input }) => input.code);
    const { runtime } = build({ defs: { flaky } });
    const result = await runtime.invoke("flaky", { code: SECRET }, { actor: dana, context: {} });
    expect(validations).toBe(1);
    expect(result).toMatchObject({ status: "completed", output: SECRET });
  });

  it("SI-9: conceals a middleware-thrown BAD_REQUEST/ValidationError (never the capability's own input, validated at stage 5) and maps INTERNAL_SERVER_ERROR/ValidationError to OUTPUT_INVALID", async () => {
    const issues = [{ message: "Bad field.", path: ["a", 0] }];
    const badRequest = viaMiddleware(() => new ORPCError("BAD_REQUEST", { cause: new ValidationError({ message: "x", issues }) }));
    const badOutput = viaMiddleware(() => new ORPCError("INTERNAL_SERVER_ERROR", { cause: new ValidationError({ message: "x", issues }) }));
    const { runtime } = build({ defs: { badRequest: badRequest.procedure, badOutput: badOutput.procedure } });
    const input = errorOf(await runtime.invoke("badRequest", undefined, { actor: dana, context: {} }));
    expect(input).toMatchObject({ code: "EXECUTION_FAILED", exposeToModel: false });
    expect(input.details).toBeUndefined();
    const output = errorOf(await runtime.invoke("badOutput", undefined, { actor: dana, context: {} }));
    expect(output).toMatchObject({ code: "OUTPUT_INVALID", exposeToModel: false });
  });

  it("maps a plain BAD_REQUEST without a ValidationError to an exposed EXECUTION_FAILED, not INPUT_INVALID", async () => {
    const { runtime } = build({ defs: { op: viaMiddleware(() => new ORPCError("BAD_REQUEST", { message: "Quantity too high." })).procedure } });
    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "EXECUTION_FAILED", exposeToModel: true, publicMessage: "Quantity too high." });
  });
});

describe("a CapabilityError from another copy of core", () => {
  const loadCopy = async () => {
    // A query string makes Vite load the module again: the shape of a duplicated install.
    const specifier = "../../src/errors/capability-error.js?copy";
    return ((await import(/* @vite-ignore */ specifier)) as typeof import("../../src/errors/capability-error.js")).CapabilityError;
  };

  it("is recognised by its brand and rebuilt with this copy's class, its exposed meaning kept", async () => {
    const Foreign = await loadCopy();
    const thrown = new Foreign({ code: "EXECUTION_FAILED", exposeToModel: true, publicMessage: "Upstream busy.", retryable: true });
    expect(thrown).not.toBeInstanceOf(CapabilityError);
    expect(CapabilityError.isInstance(thrown)).toBe(true);
    const { runtime } = build({ defs: { op: throwing(() => thrown) } });
    const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
    expect(error).toBeInstanceOf(CapabilityError);
    expect(error.cause).toBe(thrown);
    expect(error.toJSON()).toEqual({ code: "EXECUTION_FAILED", message: "Upstream busy.", retryable: true });
  });

  it("SI-9: a look-alike without the brand, or a branded one this copy cannot rebuild, is concealed", async () => {
    const lookAlike = Object.assign(new Error(SECRET), { code: "EXECUTION_FAILED", exposeToModel: true, publicMessage: SECRET });
    const unknownCode = Object.assign(new Error(SECRET), { [Symbol.for("@orpc-agent/core.CapabilityError")]: true, code: "FROM_THE_FUTURE", exposeToModel: true, publicMessage: SECRET });
    for (const thrown of [lookAlike, unknownCode]) {
      const { runtime } = build({ defs: { op: throwing(() => thrown) } });
      const error = errorOf(await runtime.invoke("op", undefined, { actor: dana, context: {} }));
      expect(error.toJSON()).toEqual(GENERIC);
      expect(visibleText(error)).not.toContain(SECRET);
    }
  });
});
