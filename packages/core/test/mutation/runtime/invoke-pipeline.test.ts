// Raised from the mutation run: stages 5–13 of docs/architecture/spec/core.md#core-6 where a broken condition would still have passed the suite.
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { describe, expect, it, vi } from "vitest";
import { captureStartupWarnings } from "../../support/startup-warnings.js";
import {
  agentMeta,
  allow,
  createInMemoryApprovalCoordinator,
  definePolicy,
  deny,
  requireApproval,
  type AgentInvocationInfo,
  type ApprovalRequest,
  type PolicyRequest,
} from "../../../src/index.js";
import { base, build, counted, dana, errorOf, meta, priya } from "../../runtime/pipeline-harness.js";
import { recordingTracer } from "../../runtime/execution-harness.js";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W4"]);

/** A Standard Schema whose validation is asynchronous: amounts must be positive, and are doubled when parsed. */
function asyncSchema(): StandardSchemaV1<{ amount: number }, { amount: number }> {
  return {
    "~standard": {
      version: 1,
      vendor: "mutation-async",
      validate: async (value) => {
        const amount = (value as { amount?: unknown }).amount;
        if (typeof amount !== "number" || amount <= 0) return { issues: [{ message: "amount must be positive", path: ["amount"] }] };
        return { value: { amount: amount * 2 } };
      },
    },
  };
}

function schemaCapability(schema: StandardSchemaV1) {
  const seen: unknown[] = [];
  const procedure = base
    .input(schema as never)
    .meta(agentMeta(meta({ expose: { direct: true } })))
    .handler(({ input }) => {
      seen.push(input);
      return input;
    });
  return { procedure, seen };
}

describe("stage 5: validation by the schema's own validate", () => {
  it("SI-6: an asynchronous schema's parsed value is what policies and the procedure see", async () => {
    const cap = schemaCapability(asyncSchema());
    const inputs: unknown[] = [];
    const look = definePolicy("look", (req) => (inputs.push(req.input), allow()));
    const { runtime } = build({ defs: { pay: cap.procedure }, policies: [look] });
    const result = await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { amount: 10 } });
    expect(inputs).toEqual([{ amount: 10 }]);
  });

  it("an asynchronous schema's issues, a rejecting validate and a throwing validate all give INPUT_INVALID", async () => {
    const rejecting: StandardSchemaV1 = { "~standard": { version: 1, vendor: "mutation-rejects", validate: () => Promise.reject(new Error("validator down")) } };
    const throwing: StandardSchemaV1 = {
      "~standard": {
        version: 1,
        vendor: "mutation-throws",
        validate: () => {
          throw new Error("validator exploded");
        },
      },
    };
    const caps = { issues: schemaCapability(asyncSchema()), rejects: schemaCapability(rejecting), throws: schemaCapability(throwing) };
    const { runtime } = build({ defs: { issues: caps.issues.procedure, rejects: caps.rejects.procedure, throws: caps.throws.procedure } });

    const issues = errorOf(await runtime.invoke("issues", { amount: -1 }, { actor: dana, context: {} }));
    expect(issues).toMatchObject({ code: "INPUT_INVALID", details: { issues: [{ path: ["amount"], message: "amount must be positive" }] } });
    for (const id of ["rejects", "throws"] as const) {
      const error = errorOf(await runtime.invoke(id, { amount: 1 }, { actor: dana, context: {} }));
      expect(error).toMatchObject({ code: "INPUT_INVALID", details: { issues: [] } });
      expect(error.cause).toBeInstanceOf(Error);
      expect(caps[id].seen).toEqual([]);
    }
  });
});

describe("stages 7 and 9: what policies are given", () => {
  it("a fresh invocation gives policies no approval key; stage 9 policies see phase execution", async () => {
    const requests: PolicyRequest[] = [];
    const look = definePolicy("look", (req) => (requests.push(req), allow()), { phases: ["invocation", "execution"] });
    const { runtime } = build({ defs: { a: counted().procedure }, policies: [look] });
    await runtime.invoke("a", undefined, { actor: dana, context: {} });
    expect(requests.map((r) => r.phase)).toEqual(["invocation", "execution"]);
    for (const req of requests) expect(Object.keys(req)).not.toContain("approval");
  });

  it("SI-6: an execution-only policy that mutates req.input fails closed, and the procedure is not called", async () => {
    const { procedure, calls } = counted();
    const mutate = definePolicy("mutate", (req) => {
      (req.input as { amount: number }).amount = 1_000_000;
      return allow();
    }, { phases: ["execution"] });
    const { runtime, ofType } = build({ defs: { pay: procedure }, policies: [mutate] });
    const error = errorOf(await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} }));
    expect(error.code).toBe("POLICY_FAILED");
    expect(calls.count).toBe(0);
    expect(ofType("capability.denied")[0]?.data).toMatchObject({ reason: "policy-failed", policyDecisions: [{ policy: "mutate", type: "error" }] });
  });

  it("a deny without a code gives details { policy } only", async () => {
    const { runtime } = build({ defs: { a: counted().procedure }, policies: [definePolicy("no", () => deny())] });
    const error = errorOf(await runtime.invoke("a", undefined, { actor: dana, context: {} }));
    expect(error.code).toBe("POLICY_DENIED");
    expect(error.details).toStrictEqual({ policy: "no" });
    expect(error.publicMessage).toBe("The operation was denied by policy.");
  });
});

describe("stage 9: a require-approval with no approval yet engages stage 8", () => {
  const late = () => definePolicy("late", () => requireApproval({ reason: "Checked late" }), { phases: ["execution"] });

  it("SI-7: a failing coordinator at the late gate fails the call, and the procedure never runs", async () => {
    const { procedure, calls } = counted({ sideEffect: "write" });
    const inner = createInMemoryApprovalCoordinator();
    const coordinator = { ...inner, create: () => Promise.reject(new Error("store down")) };
    const { runtime } = build({ defs: { pay: procedure }, policies: [late()], approvals: { coordinator } });
    const error = errorOf(await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
    expect(calls.count).toBe(0);
  });

  it("an inline approval at the late gate lets the call complete with ctx.agent.approval set", async () => {
    const agents: AgentInvocationInfo[] = [];
    const procedure = base.meta(agentMeta(meta({ sideEffect: "write" }))).handler(({ context }) => (agents.push(context.agent!), "paid"));
    const handler = vi.fn(async (_req: ApprovalRequest) => ({ status: "approved" as const, approver: priya }));
    const { runtime } = build({ defs: { pay: procedure }, policies: [late()], approvals: { handler } });
    const result = await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: "paid" });
    expect(handler).toHaveBeenCalledOnce();
    expect(agents[0]?.approval).toEqual({ id: handler.mock.calls[0]![0].id, approver: priya });
  });
});

describe("stage 8: inline decisions", () => {
  it("records a comment only when the handler gave a string", async () => {
    const gated = counted({ sideEffect: "write", approval: { required: true } }).procedure;
    for (const [comment, expected] of [[undefined, false], [42, false], ["fine", true]] as const) {
      const { runtime, ofType } = build({
        defs: { pay: gated },
        approvals: { handler: async () => ({ status: "approved", approver: priya, comment: comment as never }) },
      });
      await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} });
      const data = ofType("capability.approved")[0]!.data;
      expect(Object.keys(data).includes("comment")).toBe(expected);
    }
  });

  it("keeps the handler's complaint as the cause of an invalid decision", async () => {
    const { runtime } = build({
      defs: { pay: counted({ sideEffect: "write", approval: { required: true } }).procedure },
      approvals: { handler: async () => ({ status: "maybe", approver: priya }) as never },
    });
    const error = errorOf(await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} }));
    expect(error).toMatchObject({ code: "INTERNAL_ERROR", stage: "approval" });
    expect((error.cause as Error).message).toBe("The inline approval handler returned an invalid decision.");
  });

  it("ends the approval_request span with error when the gate fails, and ok when it suspends", async () => {
    const tracer = recordingTracer();
    const gated = counted({ sideEffect: "write", approval: { required: true } }).procedure;
    const failing = build({ defs: { pay: gated }, tracing: tracer.adapter, approvals: { handler: async () => Promise.reject(new Error("down")) } });
    await failing.runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} });
    const suspending = build({ defs: { pay: gated }, tracing: tracer.adapter, approvals: { coordinator: createInMemoryApprovalCoordinator() } });
    await suspending.runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} });
    expect(tracer.named("agent.approval_request").map((s) => s.status)).toEqual(["error", "ok"]);
  });
});

describe("evidence shapes", () => {
  it("a fresh invocation's root span carries no approval_id attribute, and capability.started no approvalId", async () => {
    const tracer = recordingTracer();
    const { runtime, ofType } = build({ defs: { a: counted().procedure }, tracing: tracer.adapter });
    await runtime.invoke("a", undefined, { actor: dana, context: {} });
    const [root] = tracer.named("agent.capability_call");
    expect(Object.keys(root!.startAttributes)).not.toContain("orpc_agent.approval_id");
    expect(ofType("capability.started")[0]!.data).toStrictEqual({ attempt: 1 });
  });

  it("hashes the input at most once per execution, even when both audit and the approval gate need it (core.md §16)", async () => {
    let toJsonCalls = 0;
    const input = {
      amount: 5,
      toJSON() {
        toJsonCalls++;
        return { amount: 5 };
      },
    };
    const { runtime, ofType } = build({
      defs: { pay: counted({ sideEffect: "write", approval: { required: true } }).procedure },
      approvals: { handler: async () => ({ status: "approved", approver: priya }) },
    });
    const result = await runtime.invoke("pay", input, { actor: dana, context: {} });
    expect(result.status).toBe("completed");
    // One read for the hash, one for the submitted copy stored beside the request (R8 re-validates it on resume).
    expect(toJsonCalls).toBe(2);
    const hashed = [ofType("capability.approval_requested")[0]!, ofType("capability.started")[0]!, ofType("capability.completed")[0]!];
    expect(new Set(hashed.map((e) => e.inputHash))).toEqual(new Set([expect.stringMatching(/^[0-9a-f]{64}$/)]));
  });

  it("calls the procedure with its router path", async () => {
    const paths: unknown[] = [];
    const procedure = base.meta(agentMeta(meta())).handler(({ path }) => (paths.push(path), "ok"));
    const { runtime } = build({ defs: { orders: { audit: { read: procedure } } } });
    await runtime.invoke("orders.audit.read", undefined, { actor: dana, context: {} });
    expect(paths).toEqual([["orders", "audit", "read"]]);
  });
});
