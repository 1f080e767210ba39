import type { IncomingMessage, ServerResponse } from "node:http";
import { approvalProgress, describeApproval, mayDecide, type Actor, type AgentRuntime, type ApprovalRecord, type ApprovalView, type ExecutionResult } from "@orpc-agent/core";
import type { AppContext } from "../api/context.js";
import type { Store } from "../domain/store.js";
import { dana, people, roles, root } from "../agent/people.js";
import { approvalCardHtml } from "./approval-card.js";
import { grantFields, grantFromForm, grantRow } from "./grant-form.js";
import { escapeHtml, page } from "./html.js";

type Outcome = { approvalId: string; text: string; ok: boolean };
type Notice = { text: string; ok: boolean };
/** An approval of a destructive call waits for a second click: the form as posted, sent again with `confirmed=yes`. */
type Confirmation = { approvalId: string; form: URLSearchParams };

/**
 * The approvals page: pending requests as core's approval view describes them (`describeApproval`: the input only
 * through each capability's `redact.approvalInput`), decided by the signed-in person through
 * `runtime.approvals.decide` (which refuses the requester, SI-4), then resumed; and the page a decision link opens
 * (`runtime.approvals.decideWithLink`). "Signing in" is a query parameter here; a real app uses its own session.
 */
export function createApprovalsApp(runtime: AgentRuntime<AppContext>, store: Store) {
  const outcomes = new Map<string, Outcome>();

  const contextFor = (actorId: string): AppContext => ({ store, user: { id: actorId, role: roles[actorId] ?? "support" } });

  const nameOf = (actor: { id: string; displayName?: string }): string => people[actor.id]?.displayName ?? actor.displayName ?? actor.id;

  function viewOf(record: ApprovalRecord, now: Date): ApprovalView {
    return describeApproval(record, runtime.registry.get(record.capabilityId), { now });
  }

  async function render(as: string, notice?: Notice, confirmation?: Confirmation): Promise<string> {
    const me = people[as];
    const pending = await runtime.approvals.list!({ status: "pending" });
    const done = [...outcomes.values()];
    const grants =
      (await runtime.grants.list({ active: true })).map((grant) => grantRow(grant, as, (id) => nameOf({ id }))).join("") || `<p class="muted" id="no-grants">No active grants.</p>`;
    const nav = Object.values(people)
      .map((p) => `<a href="/?as=${p.id}" class="${p.id === as ? "current" : ""}">${escapeHtml(p.displayName)}</a>`)
      .join("");
    const now = new Date();
    const cards = pending.map((record) => card(viewOf(record, now), as, now)).join("") || `<p class="muted" id="empty">No pending approvals.</p>`;
    const results = done
      .map((o) => `<div class="notice ${o.ok ? "done" : "refused"}" data-outcome="${escapeHtml(o.approvalId)}">${escapeHtml(o.text)}</div>`)
      .join("");
    return page(
      "Approvals",
      `<header><h1>Approvals</h1><nav>Signed in as <strong id="me">${escapeHtml(me?.displayName ?? "nobody")}</strong>${nav}</nav></header>
      ${notice ? `<div class="notice ${notice.ok ? "done" : "refused"}" id="notice">${escapeHtml(notice.text)}</div>` : ""}
      ${confirmation ? confirmationHtml(confirmation, as) : ""}
      <section id="pending">${cards}</section>
      <form method="post" action="/ask?as=${escapeHtml(as)}"><button id="ask">Ask the agent (working for Dana) for another large refund</button></form>
      <form method="post" action="/ask-deletion?as=${escapeHtml(as)}"><button id="ask-deletion">Root asks to delete Grace's account (two approvers)</button></form>
      <h2>Active grants</h2><section id="grants">${grants}</section>
      <h2>Results</h2><section id="results">${results || `<p class="muted">Nothing resumed yet.</p>`}</section>`,
    );
  }

  /** A pending request as core's view describes it; the buttons only for someone the runtime would let decide. */
  function card(view: ApprovalView, as: string, now: Date): string {
    const me = people[as];
    const canApprove = me !== undefined && mayDecide(view, me, "approve");
    const canReject = me !== undefined && mayDecide(view, me, "reject");
    let controls: string;
    if (canApprove || canReject) {
      controls = `<form method="post" action="/approvals/${encodeURIComponent(view.id)}/decide?as=${escapeHtml(as)}">
        <textarea name="comment" maxlength="500" placeholder="Comment (kept with your decision)"></textarea>
        ${canApprove ? grantFields(runtime.registry.get(view.capabilityId)?.meta.approval?.grants) : ""}
        ${canApprove ? `<button name="decision" value="approved">Approve</button>` : ""}<button name="decision" value="rejected">Reject</button>
      </form>`;
    } else {
      controls = `<p class="muted who">${escapeHtml(whyNoButtons(view, me))}</p>`;
    }
    if (canReject && !canApprove) controls = `<p class="muted who">${escapeHtml(whyNoButtons(view, me))}</p>${controls}`;
    return approvalCardHtml(view, { as, nameOf, controls, now });
  }

  /** Why the signed-in person is offered no Approve button on a pending request. */
  function whyNoButtons(view: ApprovalView, me: Actor | undefined): string {
    if (me === undefined) return "Sign in to decide.";
    if (view.requester.id === me.id) return "Your own request: another person decides it.";
    if (view.decidableBy.counted.includes(me.id)) return `You have approved (${view.progress.label}); another approver must approve it.`;
    return "You may not decide this request.";
  }

  /** The second click a destructive approval asks for: the same form, confirmed. */
  function confirmationHtml({ approvalId, form }: Confirmation, as: string): string {
    const hidden = [...form.entries()]
      .filter(([name]) => name !== "confirmed")
      .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
      .join("");
    return `<section class="card confirm" id="confirm" data-confirm="${escapeHtml(approvalId)}">
      <p><strong class="marker destructive">Destructive</strong> Approving ${escapeHtml(approvalId)} lets an operation run that cannot be undone. Approve it?</p>
      <form method="post" action="/approvals/${encodeURIComponent(approvalId)}/decide?as=${escapeHtml(as)}">${hidden}<input type="hidden" name="confirmed" value="yes">
        <button id="confirm-approve" name="decision" value="approved">Yes, approve</button><a href="/?as=${escapeHtml(as)}">Cancel</a>
      </form></section>`;
  }

  async function decide(id: string, as: string, decision: "approved" | "rejected", form: URLSearchParams): Promise<Notice | Confirmation> {
    const approver = people[as];
    if (!approver) return { text: "Sign in first.", ok: false };
    const comment = commentOf(form);
    // A grant only with an approval; the runtime refuses one beyond the caps or one this approver may not issue.
    const grant = decision === "approved" ? grantFromForm(form) : undefined;
    if (grant !== undefined && "error" in grant) return { text: `Refused: ${grant.error} The request is still pending.`, ok: false };
    const current = await runtime.approvals.get(id);
    // A destructive call is approved only on a second, explicit click.
    if (decision === "approved" && current !== null && viewOf(current, new Date()).destructive && form.get("confirmed") !== "yes") return { approvalId: id, form };
    let decided: ApprovalRecord;
    try {
      const base = { approver, ...(comment === undefined ? {} : { comment }) };
      decided = await runtime.approvals.decide(id, grant === undefined ? { status: decision, ...base } : { status: "approved", ...base, grant });
    } catch (error) {
      // Every refusal of decide is a typed CapabilityError; a repeat vote is the one that leaves the request waiting.
      const refusal = error as { code?: string; publicMessage?: string };
      const repeatVote = refusal.code === "APPROVAL_ALREADY_DECIDED" && (await runtime.approvals.get(id))?.status === "pending";
      const message = repeatVote ? "You have already approved this request; another approver must approve it." : (refusal.publicMessage ?? (error as Error).message);
      return { text: `Refused: ${message} The request is still pending.`, ok: false };
    }
    const settled = await afterDecision(decided, approver.displayName ?? approver.id);
    return grant !== undefined && settled.ok && decided.status !== "pending" ? { text: `Approved and resumed; the grant covers ${grant.uses} more.`, ok: true } : settled;
  }

  /**
   * What follows a decision, on the page or by link: an approval short of the quorum waits; a rejection is listed; an
   * approval of a call an MCP client made is left to that client; any other approval runs now, as its requester.
   */
  async function afterDecision(decided: ApprovalRecord, approverName: string): Promise<Notice> {
    const id = decided.id;
    if (decided.status === "pending") return { text: `Approval recorded: ${approvalProgress(decided).label}. Another approver must approve it.`, ok: true };
    if (decided.status === "rejected") {
      outcomes.set(id, { approvalId: id, text: `${id}: rejected by ${approverName}.`, ok: false });
      return { text: "Rejected.", ok: true };
    }
    // A call an MCP client made is completed by that client (it retries the call, or calls approvals_resume).
    if (decided.surface === "mcp") {
      outcomes.set(id, { approvalId: id, text: `${id}: approved by ${approverName}; the MCP client that asked completes it.`, ok: true });
      return { text: "Approved; the MCP client completes the call.", ok: true };
    }
    // Approved: the operation runs now, as its requester, with exactly the approved input.
    const result: ExecutionResult = await runtime.resume(id, { context: contextFor(decided.actor.id) });
    const text =
      result.status === "completed"
        ? `${id}: approved by ${approverName}; resumed: completed ${JSON.stringify(result.output)}`
        : `${id}: approved by ${approverName}; resumed: ${result.status} ${"error" in result ? result.error.code : ""}`;
    outcomes.set(id, { approvalId: id, text, ok: result.status === "completed" });
    return { text: "Approved and resumed.", ok: true };
  }

  /**
   * The page a decision link opens (`/approvals/decide?token=…`, sent in the Slack message): the approval the token
   * names, as core's view describes it, and one button for the token's action. Opening the URL decides nothing (a mail
   * scanner may fetch it); what to show comes from the token itself (`readDecisionLink`), never from parameters a
   * sender could change, and the button posts the token to `decideWithLink`, which checks everything `decide` checks.
   */
  async function linkPage(params: URLSearchParams, notice?: Notice): Promise<string> {
    const token = params.get("token") ?? "";
    let contents: { approvalId: string; action: "approve" | "reject" } | undefined;
    let refusal: string | undefined;
    try {
      contents = await runtime.approvals.readDecisionLink(token);
    } catch (error) {
      refusal = (error as { publicMessage?: string }).publicMessage ?? (error as Error).message;
    }
    const record = contents ? await runtime.approvals.get(contents.approvalId) : null;
    const now = new Date();
    const view = record ? viewOf(record, now) : undefined;
    let body: string;
    if (contents === undefined) body = `<p class="muted" id="empty">This link cannot be used: ${escapeHtml(refusal ?? "")}</p>`;
    else if (view === undefined) body = `<p class="muted" id="empty">No such approval.</p>`;
    else {
      const { action } = contents;
      const open = view.status === "pending" && notice === undefined;
      const controls = open
        ? `<form method="post" action="/approvals/decide" id="link-form">
            <input type="hidden" name="token" value="${escapeHtml(token)}">
            <textarea name="comment" maxlength="500" placeholder="Comment (kept with your decision)"></textarea>
            ${view.destructive && action === "approve" ? `<label class="confirm"><input type="checkbox" name="confirmed" value="yes" required> I understand this cannot be undone</label>` : ""}
            <button id="link-decide" name="decision" value="${action === "approve" ? "approved" : "rejected"}">${action === "approve" ? "Approve" : "Reject"}</button>
          </form>`
        : "";
      body = approvalCardHtml(view, { nameOf, controls, now });
    }
    return page(
      "Decide by link",
      `<header><h1>Decide by link</h1></header>
      ${notice ? `<div class="notice ${notice.ok ? "done" : "refused"}" id="notice">${escapeHtml(notice.text)}</div>` : ""}
      ${body}`,
    );
  }

  async function decideByLink(form: URLSearchParams): Promise<Notice> {
    const comment = commentOf(form);
    let decided: ApprovalRecord;
    try {
      decided = await runtime.approvals.decideWithLink(form.get("token") ?? "", comment === undefined ? {} : { comment });
    } catch (error) {
      const refusal = error as { publicMessage?: string };
      return { text: `Refused: ${refusal.publicMessage ?? (error as Error).message}`, ok: false };
    }
    const by = decided.decision?.approver ?? decided.approvals?.at(-1)?.approver;
    return afterDecision(decided, by ? nameOf(by) : "the link's approver");
  }

  /**
   * What the support agent does when a customer wants a refund above the threshold: the request is filed as
   * Dana, the support user the agent works for, whoever is signed in, so a manager visiting the page can approve it.
   */
  async function askForRefund(): Promise<{ text: string; ok: boolean }> {
    const result = await runtime.invoke(
      "orders.refund",
      { orderId: "o_1002", amountCents: 32_000, reason: "Keyboard arrived broken", customerId: "c_ada" },
      { actor: dana, context: contextFor(dana.id), surface: "aiSdk" },
    );
    // A live grant whose conditions hold covers the call: it runs without a new request.
    if (result.status === "completed") return { text: `The agent's refund ran under a standing grant: ${JSON.stringify(result.output)}`, ok: true };
    return { text: "The agent asked for approval.", ok: true };
  }

  async function revoke(id: string, as: string): Promise<{ text: string; ok: boolean }> {
    const by = people[as];
    if (!by) return { text: "Sign in first.", ok: false };
    try {
      const revoked = await runtime.grants.revoke(id, { by, reason: "Revoked on the approvals page." });
      return { text: `Grant revoked; its ${revoked.usesLeft} remaining uses will not be taken.`, ok: true };
    } catch (error) {
      return { text: `Refused: ${(error as { publicMessage?: string }).publicMessage ?? (error as Error).message}`, ok: false };
    }
  }

  /** An administrator's account deletion from the admin console: four eyes, so it waits for two other approvers. */
  async function askForDeletion(): Promise<void> {
    await runtime.invoke("customers.delete", { customerId: "c_grace" }, { actor: root, context: contextFor(root.id), surface: "direct" });
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const as = url.searchParams.get("as") ?? "u_dana";
    const send = (status: number, html: string): void => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(html);
    };
    try {
      if (req.method === "GET" && url.pathname === "/") return send(200, await render(as));
      if (req.method === "GET" && url.pathname === "/approvals/decide") return send(200, await linkPage(url.searchParams));
      if (req.method === "POST" && url.pathname === "/approvals/decide") {
        const form = new URLSearchParams(await readBody(req));
        return send(200, await linkPage(form, await decideByLink(form)));
      }
      const decideMatch = /^\/approvals\/([^/]+)\/decide$/.exec(url.pathname);
      if (req.method === "POST" && decideMatch) {
        const form = new URLSearchParams(await readBody(req));
        const decision = form.get("decision") === "rejected" ? "rejected" : "approved";
        const answer = await decide(decodeURIComponent(decideMatch[1]!), as, decision, form);
        return send(200, "form" in answer ? await render(as, undefined, answer) : await render(as, answer));
      }
      const revokeMatch = /^\/grants\/([^/]+)\/revoke$/.exec(url.pathname);
      if (req.method === "POST" && revokeMatch) return send(200, await render(as, await revoke(decodeURIComponent(revokeMatch[1]!), as)));
      if (req.method === "POST" && url.pathname === "/ask") return send(200, await render(as, await askForRefund()));
      if (req.method === "POST" && url.pathname === "/ask-deletion") {
        await askForDeletion();
        return send(200, await render(as, { text: "Root asked to delete an account; two approvers must approve.", ok: true }));
      }
      send(404, page("Not found", "<p>Not found.</p>"));
    } catch (error) {
      console.error("[approvals page]", error);
      send(500, page("Error", "<p>Something went wrong.</p>"));
    }
  };
}

/** The approver's comment, trimmed; none when empty. */
function commentOf(form: URLSearchParams): string | undefined {
  const text = (form.get("comment") ?? "").trim().slice(0, 500);
  return text.length > 0 ? text : undefined;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) throw new Error("form too large");
  }
  return body;
}
