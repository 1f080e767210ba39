// SI-6 attacks on the MCP v2 endpoint's URL elicitation of approvals, over loopback HTTP with the real SDK clients
// and raw bodies: one approval runs at most once and runs exactly its approved input, however the retries race
// (one 2026-07-28 requestState sent many times at once, 2025-11-25 retries racing each other and the resume tool),
// whatever encoding of the state's MAC is sent, and whatever arguments a 2025-11-25 retry swaps in.
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import {
  approvalIdOf,
  approvalUrl,
  approve,
  connectLegacyWithUrl,
  connectModernWithUrl,
  createApprovalsApp,
  serveWithElicitation,
} from "../../packages/mcp/test/approvals/approvals-app.js";
import { LEGACY_HEADERS, messagesOf, post } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const ARGS = { orderId: "o1", amount: 5 };
const OK = { status: "ok", data: { refunded: 5 } };
const CONCEALED = { status: "error", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } };
type Answer = { resultType?: string; requestState?: string; inputRequests?: Record<string, { params: { url: string } }>; structuredContent?: unknown };
type ManualClient = Awaited<ReturnType<typeof connectModernWithUrl>>;

function call(client: ManualClient, args: Record<string, unknown>, requestState?: string): Promise<Answer> {
  const params = { name: "payments_refund", arguments: args, ...(requestState !== undefined && { requestState, inputResponses: { approval: { action: "accept" } } }) };
  return client.callTool(params as never, { allowInputRequired: true } as never) as Promise<Answer>;
}

async function approvedState(client: ManualClient, app: ReturnType<typeof createApprovalsApp>): Promise<{ state: string; approvalId: string }> {
  const first = await call(client, ARGS);
  expect(first.resultType).toBe("input_required");
  const approvalId = approvalIdOf(first.inputRequests!.approval!.params.url);
  await approve(app, approvalId);
  return { state: first.requestState!, approvalId };
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** The four spellings of a 43-character base64url MAC: its last character carries two bits nobody decodes. */
function macSpellings(state: string): string[] {
  const [keyId, body, mac] = state.split(".") as [string, string, string];
  const last = BASE64URL.indexOf(mac.at(-1)!);
  return [0, 1, 2, 3].map((low) => `${keyId}.${body}.${mac.slice(0, -1)}${BASE64URL[(last & ~3) | low]}`);
}

describe("SI-6: a 2026-07-28 approval runs at most once, however its requestState is replayed", () => {
  it("SI-6: ten concurrent retries with one approved requestState run the handler once; the others answer like an unknown approval", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const { state, approvalId } = await approvedState(dana, app);
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(dana, ARGS, state)));
    const contents = answers.map((answer) => answer.structuredContent);
    expect(contents.filter((content) => JSON.stringify(content) === JSON.stringify(OK))).toHaveLength(1);
    expect(contents.filter((content) => JSON.stringify(content) === JSON.stringify(CONCEALED))).toHaveLength(9);
    expect(app.executions).toEqual([ARGS]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("consumed");
  });

  it("SI-6: the MAC's other spellings verify as the same state, so racing all of them still runs the approval once", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const { state } = await approvedState(dana, app);
    const spellings = macSpellings(state);
    expect(new Set(spellings).size).toBe(4);
    const answers = await Promise.all(spellings.flatMap((spelling) => [call(dana, ARGS, spelling), call(dana, ARGS, spelling)]));
    expect(answers.filter((answer) => JSON.stringify(answer.structuredContent) === JSON.stringify(OK))).toHaveLength(1);
    expect(app.executions).toEqual([ARGS]);
    for (const spelling of spellings) expect((await call(dana, ARGS, spelling)).structuredContent).toEqual(CONCEALED);
    expect(app.executions).toHaveLength(1);
  });

  it("SI-6: a retry with the arguments' keys reordered resumes the approval and runs the stored input", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const { state } = await approvedState(dana, app);
    expect((await call(dana, { amount: 5, orderId: "o1" }, state)).structuredContent).toEqual(OK);
    expect(app.executions).toEqual([ARGS]);
  });
});

describe("SI-6: a 2025-11-25 approval runs at most once and runs exactly what was approved", () => {
  const refund = (id: number, args: Record<string, unknown> = ARGS) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "payments_refund", arguments: args } });

  it("SI-6: six retries racing three resume-tool calls on one approved -32042 approval run the handler once", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app, { approvals: { url: (record) => approvalUrl(record.id), resumeTool: true } });
    const dana = await connectLegacyWithUrl(url, "tok-dana");
    const error = (await dana.callTool({ name: "payments_refund", arguments: ARGS }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; data?: { elicitations?: { elicitationId: string }[] } };
    expect(error.code).toBe(-32042);
    const approvalId = error.data!.elicitations![0]!.elicitationId;
    await approve(app, approvalId);
    const resume = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "approvals_resume", arguments: { approvalId } } });
    const responses = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => post(url, refund(i + 1), LEGACY_HEADERS, "tok-dana")),
      ...Array.from({ length: 3 }, (_, i) => post(url, resume(i + 100), LEGACY_HEADERS, "tok-dana")),
    ]);
    const messages = (await Promise.all(responses.map(messagesOf))).flat() as { result?: { structuredContent?: unknown }; error?: { code: number } }[];
    expect(messages.filter((message) => JSON.stringify(message.result?.structuredContent) === JSON.stringify(OK))).toHaveLength(1);
    expect(app.executions).toEqual([ARGS]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("consumed");
    // A retry that lost the race either saw the approval used or asked for a fresh one: never a second run.
    for (const message of messages) {
      if (message.error !== undefined) expect(message.error.code).toBe(-32042);
    }
  });

  it("SI-6: after approval, a retry with swapped arguments never runs them nor the approval; the original call then runs exactly its input", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectLegacyWithUrl(url, "tok-dana");
    const first = (await dana.callTool({ name: "payments_refund", arguments: ARGS }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { data?: { elicitations?: { elicitationId: string }[] } };
    const approvalId = first.data!.elicitations![0]!.elicitationId;
    await approve(app, approvalId);
    for (const swapped of [{ orderId: "o1", amount: 5000 }, { orderId: "o2", amount: 5 }, { ...ARGS, extra: true }, { orderId: "o1" }]) {
      const [message] = (await messagesOf(await post(url, refund(9, swapped), LEGACY_HEADERS, "tok-dana"))) as { error?: { code: number; data?: { elicitations?: { elicitationId: string }[] } }; result?: unknown }[];
      if (message!.error !== undefined) {
        expect(message!.error.code).toBe(-32042);
        expect(message!.error.data?.elicitations?.[0]?.elicitationId).not.toBe(approvalId);
      }
    }
    expect(app.executions).toEqual([]);
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("approved");
    expect(((await dana.callTool({ name: "payments_refund", arguments: { amount: 5, orderId: "o1" } })) as { structuredContent?: unknown }).structuredContent).toEqual(OK);
    expect(app.executions).toEqual([ARGS]);
  });
});
