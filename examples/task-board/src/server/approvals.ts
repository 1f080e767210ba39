// The app's approval desk: who sees which request, and what happens when someone decides. The runtime is the
// authority (it refuses the requester, SI-4, and runs the approved input once); the app adds one rule of its own: a
// completion on a board is decided by that board's owner.
import { approvalOutcomePart, type GovernedApprovalChunk } from "@orpc-agent/ai-sdk";
import type { AgentRuntime, ApprovalRecord } from "@orpc-agent/core";
import type { AppContext } from "../api/context.js";
import type { Store } from "../domain/store.js";
import { BOARD_OWNER_APPROVAL } from "../agent/governance.js";
import { contextFor, nameOf, people } from "../agent/people.js";
import { approvalCard, type ApprovalCard } from "./approval-card.js";

export type { ApprovalCard };

export type Decision = { ok: boolean; text: string; card?: GovernedApprovalChunk; requesterId?: string };

/** Where a chat card came from, so the outcome part carries the same tool call it was shown under. */
export type CardOrigins = Map<string, { toolCallId?: string; toolName?: string }>;

/** The most decided requests the panel keeps showing, newest first, under the pending ones. */
const DECIDED_SHOWN = 5;

export function createApprovalDesk(runtime: AgentRuntime<AppContext>, store: Store, origins: CardOrigins = new Map()) {
  /** The board owner who decides a request, from the stored, validated input. */
  function deciderOf(record: ApprovalRecord): string | null {
    if (!record.types.includes(BOARD_OWNER_APPROVAL)) return null;
    const task = store.tasks.get((record.input as { taskId?: string }).taskId ?? "");
    return store.boards.get(task?.boardId ?? "")?.ownerId ?? null;
  }

  /** Requests the signed-in person filed or decides: the pending ones, then the latest decided ones. */
  async function visibleTo(actorId: string): Promise<ApprovalCard[]> {
    const viewer = people[actorId]!;
    const now = new Date();
    const records = (await runtime.approvals.list!()).filter((record) => record.actor.id === actorId || deciderOf(record) === actorId);
    const newestFirst = (a: ApprovalRecord, b: ApprovalRecord) => b.requestedAt.getTime() - a.requestedAt.getTime();
    const pending = records.filter((record) => record.status === "pending").sort(newestFirst);
    const decided = records.filter((record) => record.decision !== undefined && record.status !== "pending").sort(newestFirst).slice(0, DECIDED_SHOWN);
    return [...pending, ...decided].map((record) => approvalCard(record, runtime.registry.get(record.capabilityId), viewer, deciderOf(record), now));
  }

  /** A decision by the signed-in person; a final one is followed by `runtime.resume`, and its outcome is the card update. */
  async function decide(id: string, actorId: string, status: "approved" | "rejected", comment?: string): Promise<Decision> {
    const approver = people[actorId];
    const record = await runtime.approvals.get(id);
    if (!approver || !record) return { ok: false, text: "No such request for you." };
    const decider = deciderOf(record);
    // The requester is left to the runtime, whose own rule refuses them; anyone else must be the board's owner.
    if (actorId !== record.actor.id && decider !== actorId) return { ok: false, text: `Refused: only ${decider ? nameOf(decider) : "the board's owner"} decides this request.` };
    try {
      await runtime.approvals.decide(id, { status, approver, ...(comment ? { comment } : {}) });
    } catch (error) {
      const message = (error as { publicMessage?: string }).publicMessage ?? (error as Error).message;
      return { ok: false, text: `Refused: ${message} The request is still pending.` };
    }
    // Approved or rejected, the requester's card shows the outcome: resume runs the approved input once, as them.
    const requester = record.actor;
    const outcome = await runtime.resume(id, { context: contextFor(store, requester.id), expectedActor: requester, expectedSurface: "aiSdk" });
    const card = approvalOutcomePart(id, outcome, { ...origins.get(id), transient: true });
    const text = status === "approved" ? card.data.message : "Rejected.";
    return { ok: true, text, card, requesterId: requester.id };
  }

  return { visibleTo, decide };
}
