import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { approvalOutcomePart, governChat, toAISDKTools, type AISDKToolResult } from "@orpc-agent/ai-sdk";
import { approvalProgress, type Actor, type AgentRuntime, type ExecutionResult } from "@orpc-agent/core";
import { generateText, stepCountIs, streamText } from "ai";
import type { AppContext } from "../api/context.js";
import { createStore, type Store } from "../domain/store.js";
import { dana, priya, root, roles, sam } from "../agent/people.js";
import { createSupportRuntime } from "../agent/runtime.js";
import type { Storage } from "../agent/storage.js";
import { startMcpServer } from "../mcp/server.js";
import { startApprovalsReceiver, type ReceivedApproval } from "../notify/receiver.js";
import { createRefundChannel } from "../notify/refund-channel.js";
import { createApprovalsApp } from "../web/approvals-app.js";
import { scriptedModel } from "./scripted-model.js";

export type DemoStep = { title: string; status: string; detail: string };
export type AuditRow = { at: Date; type: string; actor: string; capability: string | null; detail: string };
export type DemoResult = {
  steps: DemoStep[];
  approvalId: string;
  audit: AuditRow[];
  effects: Store["effects"];
  mcpCatalogs: Record<string, string[]>;
  /** The webhooks the approvals receiver verified, each with the Slack message and its decision links. */
  notifications: ReceivedApproval[];
};

/** The UI message chunks the demo reads: tool outputs (preliminary ones are a stream's pages) and progress parts. */
type UIChunk = { type: string; preliminary?: boolean; output?: unknown; data?: { progress: number; total?: number } };

const contextFor = (store: Store, actor: Actor): AppContext => ({ store, user: { id: actor.id, role: roles[actor.id]! } });

const envelopeStatus = (r: AISDKToolResult) => (r.status === "error" ? `error ${r.error.code}` : r.status);
const resultStatus = (r: ExecutionResult) => (r.status === "failed" || r.status === "cancelled" ? `${r.status} ${r.error.code}` : r.status);

/**
 * The whole governed conversation, as data. `main.ts` prints it; the test asserts it. Each step goes through the
 * same runtime a production app would use: AI SDK tools for the model, runtime.approvals for people, MCP for clients.
 */
export async function runDemo(storage: Storage, onStep: (step: DemoStep) => void = () => {}): Promise<DemoResult> {
  const store = createStore();
  // The approvers' side: a receiver (another service, started here) that verifies each signed webhook, and the
  // approvals page the decision links in its messages open. The runtime notifies through the refunds channel.
  const webhookSecret = `whsec_${randomBytes(32).toString("base64")}`;
  const receiver = await startApprovalsReceiver(webhookSecret);
  const web = createServer();
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  const pageUrl = new URL(`http://127.0.0.1:${(web.address() as AddressInfo).port}/`);
  let notifyingRuntime: AgentRuntime<AppContext> | undefined;
  const channel = createRefundChannel({ url: receiver.url, secret: webhookSecret, approver: priya, page: pageUrl, runtime: () => notifyingRuntime! });
  const { runtime, shutdown } = createSupportRuntime(storage, { notify: channel.notify });
  notifyingRuntime = runtime;
  web.on("request", createApprovalsApp(runtime, store));
  try {
    return await conversation();
  } finally {
    await new Promise<void>((resolve) => web.close(() => resolve()));
    await receiver.close();
  }

  async function conversation(): Promise<DemoResult> {
    const startedAt = new Date();
    const steps: DemoStep[] = [];
    const record = (step: DemoStep) => {
      steps.push(step);
      onStep(step);
    };

    // 1. Dana's support assistant: tools are built per request, bound to Dana and her context.
    // The conversation id comes from the app (its chat), never from the model: a conversation grant matches it.
    const conversationId = "conv_ada_keyboard";
    const tools = await toAISDKTools(runtime, { actor: dana, context: contextFor(store, dana), correlationId: `demo-${startedAt.getTime()}`, conversationId });
    const first = await generateText({
      model: scriptedModel([
        { toolCalls: [{ name: "customers_get", input: { customerId: "c_ada" } }] },
        { toolCalls: [{ name: "orders_list", input: { customerId: "c_ada" } }] },
        { toolCalls: [{ name: "orders_refund", input: { orderId: "o_1002", amountCents: 32_000, reason: "Keyboard arrived broken", customerId: "c_ada" } }] },
        { say: "A manager needs to approve this refund; I will let you know once it is done." },
      ]),
      tools,
      prompt: "Ada Byron says her keyboard (order o_1002) arrived broken. Please refund it.",
      stopWhen: stepCountIs(6),
    });
    let approvalId = "";
    for (const step of first.steps) {
      for (const result of step.toolResults) {
        const output = result.output as AISDKToolResult;
        if (output.status === "approval-required") approvalId = output.approvalId;
        const detail =
          output.status === "ok" ? JSON.stringify(output.data) : output.status === "approval-required" ? output.message : output.error.message;
        record({ title: `model calls ${result.toolName}`, status: envelopeStatus(output), detail });
      }
    }

    // 2. Dana tries to approve her own request: refused, and the request stays pending for someone else (SI-4).
    const selfApproval = await runtime.approvals.decide(approvalId, { status: "approved", approver: dana }).then(
      () => "approved (unexpected)",
      (error: { code?: string }) => `refused ${error.code}`,
    );
    const stillPending = (await runtime.approvals.get(approvalId))?.status;
    record({ title: "Dana approves her own refund", status: selfApproval, detail: `the request is still ${stillPending}` });

    // 3. Priya, a manager, approves it, and adds a standing grant: "refunds up to 200 for customer c_ada, 3 more, for
    // an hour, in this conversation". Conditions are data on the validated input; the caps are orders.refund's.
    const decided = await runtime.approvals.decide(approvalId, {
      status: "approved",
      approver: priya,
      comment: "Broken on arrival; approved.",
      grant: {
        uses: 3,
        ttlMs: 60 * 60 * 1000,
        scope: "conversation",
        conditions: [
          { path: "/amountCents", op: "lte", value: 20_000 },
          { path: "/customerId", op: "eq", value: "c_ada" },
        ],
      },
    });
    record({ title: "Priya (manager) approves, with a grant", status: "approved", detail: `refunds up to 200 for c_ada, ${decided.grant!.uses} more, for 1 h` });

    // 4. The approved operation runs once, as Dana (the requester), with exactly the input that was approved.
    const resumeOptions = { context: contextFor(store, dana), expectedActor: dana, expectedSurface: "aiSdk" as const };
    const resumed = await runtime.resume(approvalId, resumeOptions);
    record({ title: "resume the approved refund", status: resultStatus(resumed), detail: resumed.status === "completed" ? JSON.stringify(resumed.output) : "" });
    const again = await runtime.resume(approvalId, resumeOptions);
    record({ title: "resume it a second time", status: resultStatus(again), detail: again.status === "failed" ? again.error.publicMessage : "" });

    // 4b. More refunds in the same conversation: within the grant they run without asking, each use consumed once.
    // One over the grant's 200 asks (the threshold policy still demands a manager); once the uses are spent, the next
    // one asks again.
    const refunds = await generateText({
      model: scriptedModel([
        ...[15_000, 12_000, 25_000, 11_000, 10_500].map((amountCents) => ({
          toolCalls: [{ name: "orders_refund", input: { orderId: "o_1002", amountCents, reason: "Goodwill for the delay", customerId: "c_ada" } }],
        })),
        { say: "Three refunds went through; two wait for a manager." },
      ]),
      tools,
      prompt: "Ada's replacement keyboard is late as well. Please refund her for the delay, several times if needed.",
      stopWhen: stepCountIs(7),
    });
    const pendingRefunds = new Map<number, string>();
    for (const result of refunds.steps.flatMap((s) => s.toolResults)) {
      const output = result.output as AISDKToolResult;
      const input = result.input as { amountCents: number };
      if (output.status === "approval-required") pendingRefunds.set(input.amountCents, output.approvalId);
      const detail = output.status === "ok" ? JSON.stringify(output.data) : output.status === "approval-required" ? output.message : output.error.message;
      record({ title: `model calls ${result.toolName} (${input.amountCents / 100})`, status: envelopeStatus(output), detail });
    }

    // 4c. A grant issued ahead of time, for Grace's refunds in any conversation, revoked before it is used: the
    // refund it would have covered asks for a manager.
    const graceGrant = await runtime.grants.issue({
      capabilityId: "orders.refund",
      actor: dana,
      surface: "aiSdk",
      issuers: [priya],
      grant: { uses: 2, ttlMs: 60 * 60 * 1000, scope: "actor", conditions: [{ path: "/customerId", op: "eq", value: "c_grace" }] },
    });
    const revoked = await runtime.grants.revoke(graceGrant.id, { by: priya, reason: "Grace's case is closed." });
    record({ title: "Priya revokes a grant for Grace's refunds", status: revoked.status, detail: `${revoked.usesLeft} uses left, none will be taken` });
    const afterRevoke = await runtime.invoke(
      "orders.refund",
      { orderId: "o_2001", amountCents: 12_000, reason: "Lamp flickers", customerId: "c_grace" },
      { actor: dana, context: contextFor(store, dana), surface: "aiSdk", conversationId },
    );
    record({ title: "refund Grace 120 after the revoke", status: resultStatus(afterRevoke), detail: afterRevoke.status === "approval-required" ? "a manager decides, as without a grant" : "" });

    // 5. The model tries a destructive operation: the runtime's policy denies it before the procedure runs.
    const second = await generateText({
      model: scriptedModel([{ toolCalls: [{ name: "customers_delete", input: { customerId: "c_grace" } }] }, { say: "I cannot delete accounts." }]),
      tools,
      prompt: "Grace Hopper wants her account deleted.",
      stopWhen: stepCountIs(4),
    });
    for (const result of second.steps.flatMap((s) => s.toolResults)) {
      const output = result.output as AISDKToolResult;
      record({ title: `model calls ${result.toolName}`, status: envelopeStatus(output), detail: output.status === "error" ? output.error.message : "" });
    }

    // 6. Four eyes: an administrator deletes an account from the admin console (the direct surface, no model). The
    // deletion needs two approvers, neither of them Root; each approval is recorded, and one approver counts once.
    const rootContext = contextFor(store, root);
    const deletion = await runtime.invoke("customers.delete", { customerId: "c_grace" }, { actor: root, context: rootContext, surface: "direct" });
    const deletionId = deletion.status === "approval-required" ? deletion.approval.id : "";
    const progress = async () => {
      const current = await runtime.approvals.get(deletionId);
      return current === null ? "" : approvalProgress(current).label;
    };
    record({ title: "Root deletes Grace's account (admin)", status: resultStatus(deletion), detail: await progress() });
    const firstVote = await runtime.approvals.decide(deletionId, { status: "approved", approver: priya, comment: "Erasure request verified." });
    record({ title: "Priya (manager) approves the deletion", status: firstVote.status, detail: await progress() });
    const repeat = await runtime.approvals.decide(deletionId, { status: "approved", approver: priya }).then(
      () => "counted again (unexpected)",
      () => "refused: one vote per approver",
    );
    record({ title: "Priya approves it a second time", status: repeat, detail: await progress() });
    const secondVote = await runtime.approvals.decide(deletionId, { status: "approved", approver: sam, comment: "No retention hold." });
    record({ title: "Sam (data protection) approves the deletion", status: secondVote.status, detail: await progress() });
    const deleted = await runtime.resume(deletionId, { context: rootContext, expectedActor: root, expectedSurface: "direct" });
    record({ title: "resume the approved deletion", status: resultStatus(deleted), detail: deleted.status === "completed" ? JSON.stringify(deleted.output) : "" });

    // 7. An MCP client over authenticated Streamable HTTP: the catalog depends on who the token says you are.
    const mcp = await startMcpServer(runtime, store);
    const mcpCatalogs: Record<string, string[]> = {};
    try {
      for (const [token, actor] of [["demo-token-dana", dana], ["demo-token-root", root]] as const) {
        const client = new Client({ name: "demo-mcp-client", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
        const names = (await client.listTools()).tools.map((t) => t.name);
        mcpCatalogs[actor.id] = names;
        record({ title: `MCP tools/list as ${actor.displayName}`, status: `${names.length} tools`, detail: names.join(", ") });
        if (actor === dana) {
          const call = await client.callTool({ name: "orders_list", arguments: { customerId: "c_grace" } });
          record({ title: "MCP tools/call orders_list as Dana", status: call.isError ? "error" : "ok", detail: JSON.stringify(call.structuredContent) });
        }
        await client.close();
      }
    } finally {
      await mcp.close();
    }

    // 8. A long-running export, in a chat: `orders.export` streams (its output is an oRPC event iterator). Each page
    // reaches the chat UI as a preliminary tool result while the model waits, its progress as a transient
    // `data-tool-progress` part (governChat's stream), and the model reads only the final result.
    const chat = await governChat(runtime, { actor: dana, context: contextFor(store, dana) });
    const exporting = streamText({
      model: scriptedModel([{ toolCalls: [{ name: "orders_export", input: { customerId: "c_ada", pageSize: 1 } }] }, { say: "Ada's order history is ready." }]),
      tools: chat.tools,
      prompt: "Export Ada's order history.",
      stopWhen: stepCountIs(3),
    });
    const pages: number[] = [];
    let exportProgress = "";
    for await (const chunk of chat.toUIMessageStream(exporting.toUIMessageStream()) as unknown as AsyncIterable<UIChunk>) {
      if (chunk.type === "tool-output-available" && chunk.preliminary === true) pages.push((chunk.output as { data: { page: number } }).data.page);
      if (chunk.type === "data-tool-progress") exportProgress = `${chunk.data!.progress} of ${chunk.data!.total} orders`;
    }
    const exported = (await exporting.steps)[0]!.toolResults[0]!.output as AISDKToolResult;
    record({ title: "model calls orders_export (streaming)", status: envelopeStatus(exported), detail: `pages ${pages.join(", ")} as preliminary results; progress ${exportProgress}` });

    // 9. Approvers where they are. Every refund that waited for a manager was sent to the approvals receiver as a
    // signed webhook carrying a Slack message with Priya's decision links; the receiver verified each signature.
    await runtime.drainAudit(); // core's notifications are delivered off the call's path; this waits for them
    await channel.flush(); // and the webhooks, retries included
    const notifications = [...receiver.received];
    const forRefund = (id: string) => notifications.find((n) => n.approvalId === id);
    record({
      title: "approvals receiver verifies the webhooks",
      status: `${notifications.length} verified`,
      detail: `${receiver.refused} refused; first: ${forRefund(approvalId)?.slack.text ?? "none for Dana's refund"}`,
    });

    // 9a. Priya opens the approve link from the message about the 250 refund: the page shows the request and one
    // button; pressing it hands the token to decideWithLink, which decides as Priya, under every rule decide applies.
    const linked = pendingRefunds.get(25_000)!;
    const approveUrl = forRefund(linked)?.links.approve ?? "";
    const shown = await (await fetch(approveUrl)).text();
    const form = new URLSearchParams({ token: new URL(approveUrl).searchParams.get("token")!, comment: "Approved from Slack." });
    const answered = await (await fetch(new URL("/approvals/decide", pageUrl), { method: "POST", body: form })).text();
    const linkNotice = /id="notice">([^<]*)</.exec(answered)?.[1] ?? "";
    const linkedRecord = await runtime.approvals.get(linked);
    record({
      title: "Priya approves the 250 refund by link",
      status: linkedRecord?.decision?.status ?? "undecided",
      detail: `${shown.includes('id="link-decide"') ? "the link page showed the request; " : ""}${linkNotice} (decided by ${linkedRecord?.decision?.approver.id}, "${linkedRecord?.decision?.comment}")`,
    });
    const replay = await runtime.approvals.decideWithLink(form.get("token")!).then(
      () => "decided again (unexpected)",
      (error: { code?: string }) => `refused ${error.code}`,
    );
    record({ title: "the same link, opened again", status: replay, detail: "a link decides once, on any instance" });

    // 9b. Approve with changes: the model asks for 320 again; Priya approves 80 instead. The runtime validates the
    // edit, runs the policies on it, binds the approval to it; resume runs 80 and tells the model what changed.
    const asked = await runtime.invoke(
      "orders.refund",
      { orderId: "o_1002", amountCents: 32_000, reason: "Second keyboard, same fault", customerId: "c_ada" },
      { actor: dana, context: contextFor(store, dana), surface: "aiSdk", conversationId },
    );
    const editedId = asked.status === "approval-required" ? asked.approval.id : "";
    record({ title: "model calls orders_refund (320) again", status: resultStatus(asked), detail: editedId });
    const stored = (await runtime.approvals.get(editedId))!;
    const edited = await runtime.approvals.decide(editedId, {
      status: "approved",
      approver: priya,
      input: { ...(stored.input as Record<string, unknown>), amountCents: 8_000 },
      comment: "Partial refund: 80, the cable was fine.",
    });
    record({ title: "Priya approves it with 80 instead of 320", status: edited.status, detail: edited.decision?.comment ?? "" });
    const editedResult = await runtime.resume(editedId, resumeOptions);
    // What the model reads in its tool result: the output, and where what ran differs from what it asked.
    const toldModel = approvalOutcomePart(editedId, editedResult).data.result;
    record({ title: "resume the edited refund", status: resultStatus(editedResult), detail: `the model is told ${JSON.stringify(toldModel)}` });

    // 10. The audit trail, read back from the database: every decision, no payloads (after the last webhooks).
    await runtime.drainAudit();
    await channel.flush();
    await shutdown();
    const { rows } = await storage.query(
      "select at, type, actor_id, capability_id, data from orpc_agent_audit_events where at >= $1 order by id",
      [startedAt.toISOString()],
    );
    const audit = rows.map((row) => ({
      at: new Date(row.at as string),
      type: String(row.type),
      actor: String(row.actor_id),
      capability: (row.capability_id as string | null) ?? null,
      detail: auditDetail(typeof row.data === "string" ? JSON.parse(row.data) : (row.data as Record<string, unknown>)),
    }));
    return { steps, approvalId, audit, effects: { ...store.effects }, mcpCatalogs, notifications: [...receiver.received] };
  }
}

function auditDetail(data: Record<string, unknown>): string {
  // A shadow policy's would-be decision, beside what was enforced.
  if (typeof data.policy === "string" && typeof data.decision === "string") return `shadow ${data.policy} would ${data.decision} (enforced ${String(data.enforced)})`;
  if (typeof data.reason === "string") return `reason ${data.reason}`;
  if (typeof data.code === "string") return `code ${data.code}`;
  // A standing grant: what it allows when issued; on a covered call, the uses it has left.
  if (typeof data.grantId === "string" && typeof data.uses === "number") return `${data.uses} uses, ${String(data.scope)} scope`;
  if (typeof data.approvalId === "string" && data.approver) {
    const by = `by ${(data.approver as { id: string }).id}`;
    const grant = data.grant as { usesLeft: number } | undefined;
    if (grant !== undefined) return `${by} (grant, ${grant.usesLeft} uses left)`;
    return typeof data.quorum === "number" ? `${by} (${String(data.approvalCount)} of ${data.quorum} approvals)` : by;
  }
  if (typeof data.approvalId === "string") return String(data.approvalId);
  if (typeof data.count === "number") return `${data.count} capabilities`;
  // A stream's terminal event also counts the events it delivered.
  if (typeof data.attempts === "number" && typeof data.events === "number") return `${data.attempts} attempt(s), ${data.events} event(s)`;
  if (typeof data.attempts === "number") return `${data.attempts} attempt(s)`;
  return "";
}
