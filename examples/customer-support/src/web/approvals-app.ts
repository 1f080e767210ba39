import type { IncomingMessage, ServerResponse } from "node:http";
import { approvalProgress, type AgentRuntime, type ApprovalRecord, type ExecutionResult } from "@orpc-agent/core";
import type { AppContext } from "../api/context.js";
import type { Store } from "../domain/store.js";
import { dana, people, roles, root } from "../agent/people.js";
import { grantFields, grantFromForm, grantRow } from "./grant-form.js";
import { escapeHtml, page } from "./html.js";

type Outcome = { approvalId: string; text: string; ok: boolean };

/**
 * The approvals page: pending requests shown through each capability's `redact.approvalInput` view, decided by
 * the signed-in person through `runtime.approvals.decide` (which refuses the requester, SI-4), then resumed.
 * "Signing in" is a query parameter here; a real app uses its own session.
 */
export function createApprovalsApp(runtime: AgentRuntime<AppContext>, store: Store) {
  const outcomes = new Map<string, Outcome>();

  const contextFor = (actorId: string): AppContext => ({ store, user: { id: actorId, role: roles[actorId] ?? "support" } });

  async function render(as: string, notice?: { text: string; ok: boolean }): Promise<string> {
    const me = people[as];
    const pending = await runtime.approvals.list!({ status: "pending" });
    const done = [...outcomes.values()];
    const nameOf = (id: string) => people[id]?.displayName ?? id;
    const grants = (await runtime.grants.list({ active: true })).map((grant) => grantRow(grant, as, nameOf)).join("") || `<p class="muted" id="no-grants">No active grants.</p>`;
    const nav = Object.values(people)
      .map((p) => `<a href="/?as=${p.id}" class="${p.id === as ? "current" : ""}">${escapeHtml(p.displayName)}</a>`)
      .join("");
    const cards = pending.map((record) => card(record, as)).join("") || `<p class="muted" id="empty">No pending approvals.</p>`;
    const results = done
      .map((o) => `<div class="notice ${o.ok ? "done" : "refused"}" data-outcome="${escapeHtml(o.approvalId)}">${escapeHtml(o.text)}</div>`)
      .join("");
    return page(
      "Approvals",
      `<header><h1>Approvals</h1><nav>Signed in as <strong id="me">${escapeHtml(me?.displayName ?? "nobody")}</strong>${nav}</nav></header>
      ${notice ? `<div class="notice ${notice.ok ? "done" : "refused"}" id="notice">${escapeHtml(notice.text)}</div>` : ""}
      <section id="pending">${cards}</section>
      <form method="post" action="/ask?as=${escapeHtml(as)}"><button id="ask">Ask the agent (working for Dana) for another large refund</button></form>
      <form method="post" action="/ask-deletion?as=${escapeHtml(as)}"><button id="ask-deletion">Root asks to delete Grace's account (two approvers)</button></form>
      <h2>Active grants</h2><section id="grants">${grants}</section>
      <h2>Results</h2><section id="results">${results || `<p class="muted">Nothing resumed yet.</p>`}</section>`,
    );
  }

  function card(record: ApprovalRecord, as: string): string {
    const view = runtime.registry.get(record.capabilityId)?.meta.redact?.approvalInput;
    // The display hook decides what a human sees; the runtime always executes the stored, hashed input.
    const shown = view ? view(record.input) : record.input;
    const own = record.actor.id === as;
    // A quorum request shows its progress and who approved so far; it runs only once the quorum is met.
    const progress = approvalProgress(record);
    const approvedBy = (record.approvals ?? []).map((vote) => people[vote.approver.id]?.displayName ?? vote.approver.id);
    const progressLine =
      progress.quorum > 1
        ? `<p class="progress" data-progress="${escapeHtml(record.id)}">${escapeHtml(progress.label)}${approvedBy.length > 0 ? ` · approved by ${escapeHtml(approvedBy.join(", "))}` : ""}</p>`
        : "";
    return `<div class="card" data-approval="${escapeHtml(record.id)}">
      <h3>${escapeHtml(record.capabilityId)} <span class="muted">requested by ${escapeHtml(people[record.actor.id]?.displayName ?? record.actor.id)}${own ? " (you)" : ""}</span></h3>
      <p>${record.reasons.map(escapeHtml).join("<br>")}</p>${progressLine}
      <pre>${escapeHtml(JSON.stringify(shown, null, 2))}</pre>
      <p class="muted">Expires ${escapeHtml(record.expiresAt.toISOString())}</p>
      <form method="post" action="/approvals/${encodeURIComponent(record.id)}/decide?as=${escapeHtml(as)}">
        ${grantFields(runtime.registry.get(record.capabilityId)?.meta.approval?.grants)}
        <button name="decision" value="approved">Approve</button><button name="decision" value="rejected">Reject</button>
      </form></div>`;
  }

  async function decide(id: string, as: string, decision: "approved" | "rejected", form: URLSearchParams): Promise<{ text: string; ok: boolean }> {
    const approver = people[as];
    if (!approver) return { text: "Sign in first.", ok: false };
    // A grant only with an approval; the runtime refuses one beyond the caps or one this approver may not issue.
    const grant = decision === "approved" ? grantFromForm(form) : undefined;
    if (grant !== undefined && "error" in grant) return { text: `Refused: ${grant.error} The request is still pending.`, ok: false };
    let decided: ApprovalRecord;
    try {
      decided = await runtime.approvals.decide(id, grant === undefined ? { status: decision, approver } : { status: "approved", approver, grant });
    } catch (error) {
      // Every refusal of decide is a typed CapabilityError; a repeat vote is the one that leaves the request waiting.
      const refusal = error as { code?: string; publicMessage?: string };
      const repeatVote = refusal.code === "APPROVAL_ALREADY_DECIDED" && (await runtime.approvals.get(id))?.status === "pending";
      const message = repeatVote ? "You have already approved this request; another approver must approve it." : (refusal.publicMessage ?? (error as Error).message);
      return { text: `Refused: ${message} The request is still pending.`, ok: false };
    }
    // An approval short of the quorum is recorded; the request waits for the next approver.
    if (decided.status === "pending") return { text: `Approval recorded: ${approvalProgress(decided).label}. Another approver must approve it.`, ok: true };
    if (decision === "rejected") {
      outcomes.set(id, { approvalId: id, text: `${id}: rejected by ${approver.displayName}.`, ok: false });
      return { text: "Rejected.", ok: true };
    }
    const record = await runtime.approvals.get(id);
    // A call an MCP client made is completed by that client (it retries the call, or calls approvals_resume).
    if (record?.surface === "mcp") {
      outcomes.set(id, { approvalId: id, text: `${id}: approved by ${approver.displayName}; the MCP client that asked completes it.`, ok: true });
      return { text: "Approved; the MCP client completes the call.", ok: true };
    }
    // Approved: the operation runs now, as its requester, with exactly the approved input.
    const result: ExecutionResult = await runtime.resume(id, { context: contextFor(record!.actor.id) });
    const text =
      result.status === "completed"
        ? `${id}: approved by ${approver.displayName}; resumed: completed ${JSON.stringify(result.output)}`
        : `${id}: approved by ${approver.displayName}; resumed: ${result.status} ${"error" in result ? result.error.code : ""}`;
    outcomes.set(id, { approvalId: id, text, ok: result.status === "completed" });
    return { text: grant === undefined ? "Approved and resumed." : `Approved and resumed; the grant covers ${grant.uses} more.`, ok: true };
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
      const decideMatch = /^\/approvals\/([^/]+)\/decide$/.exec(url.pathname);
      if (req.method === "POST" && decideMatch) {
        const form = new URLSearchParams(await readBody(req));
        const decision = form.get("decision") === "rejected" ? "rejected" : "approved";
        return send(200, await render(as, await decide(decodeURIComponent(decideMatch[1]!), as, decision, form)));
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

async function readBody(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 10_000) throw new Error("form too large");
  }
  return body;
}
