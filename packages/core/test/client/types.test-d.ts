import { describe, expectTypeOf, it } from "vitest";
import type * as Client from "../../src/client/index.js";
import type * as Core from "../../src/index.js";
import type { JsonSchemaObject as CoreJsonSchemaObject } from "../../src/schema/index.js";
import type { CapabilityClientError } from "../../src/http/index.js";
import type { ExecutionResult } from "../../src/index.js";

// B2 (docs/architecture/spec/distributed.md#distributed-10): core/client re-declares core's unions instead of importing them (a browser bundle
// must not pull @orpc/server); these checks hold each copy equal to the original.
describe("core/client types", () => {
  it("B2: re-declared unions equal core's", () => {
    expectTypeOf<Client.SideEffect>().toEqualTypeOf<Core.SideEffect>();
    expectTypeOf<Client.RiskLevel>().toEqualTypeOf<Core.RiskLevel>();
    expectTypeOf<Client.ErrorCode>().toEqualTypeOf<Core.ErrorCode>();
    expectTypeOf<Client.ApprovalStatus>().toEqualTypeOf<Core.ApprovalStatus>();
    expectTypeOf<Client.JsonSchemaObject>().toEqualTypeOf<CoreJsonSchemaObject>();
    expectTypeOf<Client.ProgressUpdate>().toEqualTypeOf<Core.ProgressUpdate>();
  });

  it("B2: a RemoteDescriptor is assignable to core's CapabilityDescriptor", () => {
    expectTypeOf<Client.RemoteDescriptor>().toExtend<Core.CapabilityDescriptor>();
  });

  it("remote surfaces are exposure surfaces, never direct or test", () => {
    expectTypeOf<Client.RemoteSurface>().toExtend<Core.ExposureSurface>();
    expectTypeOf<"direct">().not.toExtend<Client.RemoteSurface>();
    expectTypeOf<"test">().not.toExtend<Client.RemoteSurface>();
  });

  it("the client error code set extends core's with the two service codes only", () => {
    expectTypeOf<Exclude<Client.RemoteErrorCode, Core.ErrorCode>>().toEqualTypeOf<"INVOCATION_CONFLICT" | "DESCRIPTOR_STALE">();
    expectTypeOf<Client.RemoteError>().toExtend<{ code: string; message: string; retryable: boolean }>();
    expectTypeOf<Core.ModelError>().toExtend<Client.RemoteError>();
  });

  it("CapabilityClient is structural and has no registry member (adapter overload discrimination)", () => {
    expectTypeOf<Client.CapabilityClient>().not.toHaveProperty("registry");
    const structural = {
      describe: async () => ({ protocol: 1 as const, namespace: "n", surface: "aiSdk" as const, catalogDigest: "d", descriptors: [] }),
      invoke: async <O>(): Promise<Client.RemoteExecutionResult<O>> => ({ protocol: 1, status: "outcome-unknown", invocationId: "i", message: "m", reason: "transport" }),
      resume: async <O>(): Promise<Client.RemoteExecutionResult<O>> => ({ protocol: 1, status: "outcome-unknown", invocationId: "i", message: "m", reason: "transport" }),
      reconcile: async <O>(): Promise<Client.ReconcileResult<O>> => ({ protocol: 1, invocationId: "i", state: "absent" }),
    };
    expectTypeOf(structural).toExtend<Client.CapabilityClient>();
  });

  it("isOutcomeUnknown and isSettled narrow the result", () => {
    const r = {} as Client.RemoteExecutionResult<{ ok: true }>;
    if (({} as { isOutcomeUnknown: typeof Client.isOutcomeUnknown }).isOutcomeUnknown(r)) {
      expectTypeOf(r).toEqualTypeOf<Client.OutcomeUnknown>();
    }
    if (({} as { isSettled: typeof Client.isSettled }).isSettled(r)) {
      expectTypeOf(r.status).toEqualTypeOf<"completed" | "failed" | "cancelled">();
    }
    expectTypeOf<Client.RemoteExecutionResult["status"]>().toEqualTypeOf<ExecutionResult["status"] | "outcome-unknown">();
  });

  it("CapabilityClientError satisfies CapabilityClientFailure", () => {
    expectTypeOf<CapabilityClientError>().toExtend<Client.CapabilityClientFailure>();
    expectTypeOf<typeof Client.REMOTE_PROTOCOL>().toEqualTypeOf<1>();
  });
});
