// SI-9: what a handler's nested oRPC calls and clients report about internals never reaches the model (issue 22, finding 6).
import { call, createRouterClient, ORPCError, os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toModelError } from "../../packages/core/src/errors/capability-error.js";
import { base, build, dana, errorOf, meta } from "./support/runtime.js";

const CONCEALED = { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false };

// An internal procedure the capability calls with data the server builds, never the model's input.
const ledgerWrite = os.input(z.object({ ssn_hash: z.string(), internal_ledger_id: z.number() })).handler(() => "written");
// An internal service behind a nested oRPC client, failing the way a proxy reports an unreachable upstream.
const upstream = createRouterClient({
  ping: os.handler(() => {
    throw new ORPCError("BAD_GATEWAY", { message: "upstream ledger-db.internal:5432 refused the connection" });
  }),
  unavailable: os.handler(() => {
    throw new ORPCError("SERVICE_UNAVAILABLE", { message: "pool exhausted on 10.0.3.7:6379" });
  }),
});

async function modelSees(handler: () => unknown) {
  const procedure = base.meta({ agent: meta() }).input(z.object({ amount: z.number() })).handler(handler);
  const { runtime } = build({ defs: { pay: procedure } });
  const error = errorOf(await runtime.invoke("pay", { amount: 1 }, { actor: dana, context: {} }));
  return { error, model: toModelError(error) };
}

describe("SI-9: internal errors are concealed", () => {
  it("SI-9: a nested call() failing the inner procedure's schema is concealed, not INPUT_INVALID with internal field paths", async () => {
    const { error, model } = await modelSees(() => call(ledgerWrite, { ssn_hash: 42 } as never));
    expect(model).toEqual(CONCEALED);
    expect(JSON.stringify(model)).not.toMatch(/ssn_hash|internal_ledger_id/);
    expect(error.cause).toBeInstanceOf(ORPCError);
  });

  it("SI-9: a BAD_GATEWAY or SERVICE_UNAVAILABLE bubbling up from a nested oRPC client is concealed, host and port stay inside", async () => {
    for (const failing of [() => upstream.ping(), () => upstream.unavailable()]) {
      const { error, model } = await modelSees(failing);
      expect(model).toEqual(CONCEALED);
      expect(error.exposeToModel).toBe(false);
      expect(error.cause).toBeInstanceOf(ORPCError);
    }
  });

  it("SI-9: the capability's own invalid input still answers INPUT_INVALID with its own field paths", async () => {
    const procedure = base.meta({ agent: meta() }).input(z.object({ amount: z.number() })).handler(() => "ok");
    const { runtime } = build({ defs: { pay: procedure } });
    const model = toModelError(errorOf(await runtime.invoke("pay", { amount: "x" }, { actor: dana, context: {} })));
    expect(model).toMatchObject({ code: "INPUT_INVALID", details: { issues: [{ path: ["amount"] }] } });
  });

  it("SI-9: a declared .errors() entry crosses with its message, even a 5xx one", async () => {
    const procedure = base
      .errors({ BAD_GATEWAY: { message: "The payment provider is unavailable; try later." } })
      .meta({ agent: meta() })
      .handler(({ errors }) => {
        throw errors.BAD_GATEWAY();
      });
    const { runtime } = build({ defs: { pay: procedure } });
    const model = toModelError(errorOf(await runtime.invoke("pay", undefined, { actor: dana, context: {} })));
    expect(model).toEqual({ code: "EXECUTION_FAILED", message: "The payment provider is unavailable; try later.", retryable: false });
  });

  it("SI-9: a handler's own client-error refusal (4xx ORPCError) still crosses with its message", async () => {
    const { model } = await modelSees(() => {
      throw new ORPCError("CONFLICT", { message: "The note changed meanwhile." });
    });
    expect(model).toEqual({ code: "EXECUTION_FAILED", message: "The note changed meanwhile.", retryable: false });
  });
});
