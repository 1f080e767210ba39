// SI-5 / SI-6 over the MCP v2 endpoint: an approval decided with changes binds the model's retry to the request as it
// asked it, and the retry runs the edit. A retry that sends the edited arguments instead is not that approval's retry
// (a 2026-07-28 requestState is bound to the original arguments; a 2025-11-25 retry asks anew), so the edit cannot be
// smuggled in twice. The structured result tells the model where what ran differs.
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { APPROVER, approvalIdOf, connectLegacyWithUrl, connectModernWithUrl, createApprovalsApp, serveWithElicitation } from "../../packages/mcp/test/approvals/approvals-app.js";

closeEverythingAfterEachTest();

const ARGS = { orderId: "o1", amount: 5 };
const EDITED = { orderId: "o1", amount: 2 };
const EDITED_OK = { status: "ok", data: { refunded: 2 }, approvedWithChanges: { changed: ["/amount"] } };
const CONCEALED = { status: "error", error: { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false } };
type Answer = { resultType?: string; requestState?: string; inputRequests?: Record<string, { params: { url: string } }>; structuredContent?: unknown };
type ManualClient = Awaited<ReturnType<typeof connectModernWithUrl>>;

function call(client: ManualClient, args: Record<string, unknown>, requestState?: string): Promise<Answer> {
  const params = { name: "payments_refund", arguments: args, ...(requestState !== undefined && { requestState, inputResponses: { approval: { action: "accept" } } }) };
  return client.callTool(params as never, { allowInputRequired: true } as never) as Promise<Answer>;
}

describe("approve with changes over MCP (SI-5, SI-6)", () => {
  it("SI-5: a 2026-07-28 retry with the original arguments runs the edit once; one with the edited arguments is refused", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectModernWithUrl(url, "tok-dana", undefined, true);
    const first = await call(dana, ARGS);
    const approvalId = approvalIdOf(first.inputRequests!.approval!.params.url);
    await app.runtime.approvals.decide(approvalId, { status: "approved", approver: APPROVER, input: EDITED });

    expect((await call(dana, EDITED, first.requestState)).structuredContent).toEqual(CONCEALED);
    expect(app.executions).toEqual([]);
    expect((await call(dana, ARGS, first.requestState)).structuredContent).toEqual(EDITED_OK);
    expect((await call(dana, ARGS, first.requestState)).structuredContent).toEqual(CONCEALED);
    expect(app.executions).toEqual([EDITED]);
  });

  it("SI-5: a 2025-11-25 retry with the original arguments runs the edit; one with the edited arguments asks for a new approval", async () => {
    const app = createApprovalsApp();
    const { url } = await serveWithElicitation(app);
    const dana = await connectLegacyWithUrl(url, "tok-dana");
    const refused = (args: Record<string, unknown>) =>
      dana.callTool({ name: "payments_refund", arguments: args }).then(
        () => undefined,
        (e: unknown) => e as { code?: number; data?: { elicitations?: { elicitationId: string }[] } },
      );
    const first = await refused(ARGS);
    const approvalId = first!.data!.elicitations![0]!.elicitationId;
    await app.runtime.approvals.decide(approvalId, { status: "approved", approver: APPROVER, input: EDITED });

    const other = await refused(EDITED);
    expect(other?.code).toBe(-32042);
    expect(other?.data?.elicitations?.[0]?.elicitationId).not.toBe(approvalId);
    expect(app.executions).toEqual([]);
    const retried = (await dana.callTool({ name: "payments_refund", arguments: ARGS })) as { structuredContent?: unknown };
    expect(retried.structuredContent).toEqual(EDITED_OK);
    expect(app.executions).toEqual([EDITED]);
  });
});
