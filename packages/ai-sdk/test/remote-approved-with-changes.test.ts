// Approve with changes over the remote overload (docs/guides/approvals.md#approve-with-changes): a remote tool's call
// suspends, the manager approves a smaller amount on the server, and the client's resume reaches the model as the
// local tool's envelope does, `approvedWithChanges` naming where what ran differs. A server that forges the field is
// refused, never believed and never silently dropped.
import { afterEach, describe, expect, it } from "vitest";
import type { CapabilityClient, RemoteExecutionResult } from "@orpc-agent/core/client";
import { toAISDKTools, type RemoteAISDKToolResult } from "../src/index.js";
import { OUTCOME_UNKNOWN_MESSAGE, toRemoteToolResult } from "../src/remote-result.js";
import { REMOTE_TOOL_RESULT_SCHEMA, TOOL_RESULT_SCHEMA } from "../src/tool-output.js";
import { buildApp, context, dana, priya } from "./support/app.js";
import { newInvocationId, startCapabilityServer, type CapabilityServer } from "./support/remote-server.js";
import { runTool } from "./support/run-tool.js";
import { remoteResults } from "./support/spy-client.js";

const ARGS = { orderId: "o_1", amount: 320 };
const EDITED = { orderId: "o_1", amount: 80 };

const servers: CapabilityServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The support app behind a real loopback server; Dana's model asks for a refund through her remote tools. */
async function suspendedRefund() {
  const app = buildApp();
  const server = await startCapabilityServer({ runtime: app.runtime, appContext: context, actors: [dana, priya] });
  servers.push(server);
  const client = server.clientFor(dana);
  const tools = await toAISDKTools(client, { invocationId: async () => newInvocationId() });
  const asked = (await runTool(tools, "orders_refund", ARGS)) as RemoteAISDKToolResult;
  if (asked.status !== "approval-required") throw new Error(`expected approval-required, got ${JSON.stringify(asked)}`);
  return { app, client, approvalId: asked.approvalId, invocationId: asked.invocationId };
}

describe("approvedWithChanges reaches the model over the remote path", () => {
  it("a resume after an edit: the model-facing envelope says what changed, on the first answer and on a replay", async () => {
    const { app, client, approvalId, invocationId } = await suspendedRefund();
    await app.runtime.approvals.decide(approvalId, { status: "approved", approver: priya, input: EDITED });

    const envelope = toRemoteToolResult(await client.resume({ invocationId, approvalId }), invocationId);
    expect(JSON.stringify(envelope)).toBe(
      '{"status":"ok","data":{"refunded":80,"orderId":"o_1","approvedBy":"u_priya"},"approvedWithChanges":{"changed":["/amount"]}}',
    );
    expect(app.handlerRuns).toEqual(["orders.refund"]);
    // The journal's replay tells the model the same, and nothing runs again.
    expect(toRemoteToolResult(await client.resume({ invocationId, approvalId }), invocationId)).toEqual(envelope);
    expect(app.handlerRuns).toEqual(["orders.refund"]);

    // Exactly what the local path tells the model for the same decision.
    const local = buildApp();
    const requested = await local.runtime.invoke("orders.refund", ARGS, { actor: dana, context, surface: "aiSdk" });
    if (requested.status !== "approval-required") throw new Error("expected approval-required");
    await local.runtime.approvals.decide(requested.approval.id, { status: "approved", approver: priya, input: EDITED });
    const resumedLocally = await local.runtime.resume(requested.approval.id, { context, expectedActor: dana, expectedSurface: "aiSdk" });
    expect(resumedLocally).toMatchObject({ status: "completed", approvedWithChanges: (envelope as { approvedWithChanges: unknown }).approvedWithChanges });
  });

  it("a resume approved as asked adds nothing to the envelope", async () => {
    const { app, client, approvalId, invocationId } = await suspendedRefund();
    await app.runtime.approvals.decide(approvalId, { status: "approved", approver: priya });
    const envelope = toRemoteToolResult(await client.resume({ invocationId, approvalId }), invocationId);
    expect(JSON.stringify(envelope)).toBe('{"status":"ok","data":{"refunded":320,"orderId":"o_1","approvedBy":"u_priya"}}');
  });

  it("the tool's output schema admits the field, pointers only, on the local and the remote envelope", () => {
    for (const schema of [TOOL_RESULT_SCHEMA, REMOTE_TOOL_RESULT_SCHEMA]) {
      const ok = schema.oneOf[0];
      expect(ok.properties.approvedWithChanges).toEqual({
        type: "object",
        properties: { changed: { type: "array", items: { type: "string" } } },
        required: ["changed"],
        additionalProperties: false,
      });
    }
  });
});

describe("a forged approvedWithChanges from a client is refused", () => {
  const ID = "inv-1";
  const UNKNOWN = { status: "outcome-unknown", invocationId: ID, message: OUTCOME_UNKNOWN_MESSAGE };
  const completedWith = (approvedWithChanges: unknown) => ({ ...remoteResults.completed(ID, { refunded: 80 }), approvedWithChanges }) as RemoteExecutionResult;

  it("values beside the pointers, non-pointers or another shape read as outcome-unknown, never as ok", () => {
    for (const forged of [
      { changed: ["/amount"], before: { amount: 320 } },
      { changed: ["amount"] },
      { changed: "/amount" },
      { changed: [{ pointer: "/amount" }] },
      {},
      null,
      ["/amount"],
    ]) {
      expect(toRemoteToolResult(completedWith(forged), ID), JSON.stringify(forged)).toEqual(UNKNOWN);
    }
  });

  it("a well-formed one is copied, never handed on by reference", () => {
    const changed = ["/amount"];
    const result = toRemoteToolResult(completedWith({ changed }), ID) as { approvedWithChanges: { changed: string[] } };
    expect(result).toEqual({ status: "ok", data: { refunded: 80 }, approvedWithChanges: { changed: ["/amount"] } });
    expect(result.approvedWithChanges.changed).not.toBe(changed);
  });

  it("through a remote tool: a client answering with a forged one gives the model outcome-unknown", async () => {
    const forging: CapabilityClient = {
      describe: async () => ({
        protocol: 1,
        namespace: "n",
        surface: "aiSdk",
        catalogDigest: "d",
        descriptors: [
          {
            id: "orders.refund",
            description: "Refund an order.",
            inputSchema: { type: "object" },
            sideEffect: "write",
            risk: "high",
            tags: [],
            idempotent: false,
            toolNames: { aiSdk: "orders_refund", mcp: "orders_refund" },
            digest: "x",
          },
        ],
      }),
      invoke: async (request) => ({ ...remoteResults.completed(request.invocationId, { refunded: 80 }), approvedWithChanges: { changed: ["/amount"], amount: 320 } }) as unknown as never,
      resume: async () => {
        throw new Error("unused");
      },
      reconcile: async () => {
        throw new Error("unused");
      },
    };
    const tools = await toAISDKTools(forging, { invocationId: async () => ID });
    expect(await runTool(tools, "orders_refund", ARGS)).toEqual(UNKNOWN);
  });
});
