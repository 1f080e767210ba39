// The terminal walk-through, as data: each step's title, status and detail, the effects on the board and the audit
// trail read back from the database. `main.ts` prints it; test/demo.test.ts asserts what it prints.
import { APPROVAL_PART_TYPE, governChat, reconcileApprovalPart, type GovernedApprovalData } from "@orpc-agent/ai-sdk";
import type { UIMessage } from "ai";
import { ada, ben, contextFor, root } from "../agent/people.js";
import { createBoardRuntime } from "../agent/runtime.js";
import type { Storage } from "../agent/storage.js";
import { createStore } from "../domain/store.js";
import { createApprovalDesk } from "../server/approvals.js";
import { chatTurn, lastParts } from "./turn.js";

export type Step = { title: string; status: string; detail?: string };

export async function runDemo(storage: Storage, onStep: (step: Step) => void = () => {}) {
  const startedAt = new Date();
  const { runtime, shutdown } = createBoardRuntime(storage);
  const store = createStore();
  const desk = createApprovalDesk(runtime, store);
  const steps: Step[] = [];
  const step = (s: Step) => (steps.push(s), onStep(s));

  const adaTools = Object.keys((await governChat(runtime, { actor: ada, context: contextFor(store, ada.id) })).tools);
  const rootTools = Object.keys((await governChat(runtime, { actor: root, context: contextFor(store, root.id) })).tools);
  step({ title: "Ada's agent gets its tools", status: `${adaTools.length} tools`, detail: adaTools.join(", ") });
  step({ title: "Root's agent (administrator) gets its tools", status: `${rootTools.length} tools`, detail: rootTools.join(", ") });

  const asAda = { runtime, store, actor: ada };
  let chat: UIMessage[] = await chatTurn(asAda, [], "What's on the boards?");
  const list = lastParts(chat).find((p) => p.type === "tool-boards_list");
  step({ title: "Ada: what's on the boards?", status: `${list?.state}`, detail: `${(list?.output as { data: unknown[] }).data.length} boards` });

  chat = await chatTurn(asAda, chat, "Mark the on-call keys on Ben's Ops board as done.");
  const card = lastParts(chat).find((p) => p.type === APPROVAL_PART_TYPE)!.data as GovernedApprovalData;
  step({ title: "Ada: mark Ben's on-call keys task done", status: `card ${card.state}`, detail: card.message });

  const own = await desk.decide(card.approvalId, ada.id, "approved");
  step({ title: "Ada approves her own request", status: own.ok ? "approved" : "refused", detail: own.text });
  const other = await desk.decide(card.approvalId, root.id, "approved");
  step({ title: "Root (not the board's owner) approves", status: other.ok ? "approved" : "refused", detail: other.text });

  const owner = await desk.decide(card.approvalId, ben.id, "approved");
  // The page receives this part over its event stream and reconciles it the same way.
  chat = reconcileApprovalPart(chat, owner.card!);
  const updated = chat.flatMap((m) => m.parts as { type: string; id?: string; data?: GovernedApprovalData }[]).find((p) => p.id === card.approvalId)!.data!;
  step({ title: "Ben (the owner) approves; the task resumes", status: `card ${updated.state}`, detail: JSON.stringify(updated.result) });

  chat = await chatTurn(asAda, chat, "Delete the Ops board.");
  const deletion = lastParts(chat).find((p) => p.type === "tool-boards_delete");
  // ai 6's output-denied: the public reason is in the envelope the part carries as its approval descriptor (SI-9).
  const denial = deletion?.approval?.descriptor as { error?: { message?: string } } | undefined;
  step({ title: "Ada: delete the Ops board", status: `${deletion?.state}`, detail: deletion?.approval?.reason ?? denial?.error?.message });

  const rootChat = await chatTurn({ runtime, store, actor: root }, [], "Reindex the boards.");
  const reindex = lastParts(rootChat).find((p) => p.type === "tool-internal_reindex");
  const adaChat = await chatTurn(asAda, [], "Reindex the boards.");
  step({ title: "Root: reindex the boards (internal)", status: `${reindex?.state}`, detail: `Ada asking the same hears: "${textOf(adaChat)}"` });

  await shutdown();
  const { rows } = await storage.query("select type, actor_id, capability_id from orpc_agent_audit_events where at >= $1 order by id", [startedAt]);
  const audit = (rows as { type: string; actor_id: string; capability_id: string | null }[]).map((r) => ({ type: r.type, actor: r.actor_id, capability: r.capability_id }));
  return { steps, audit, effects: { ...store.effects }, keysStatus: store.tasks.get("t_keys")!.status, opsBoardExists: store.boards.has("b_ops") };
}

function textOf(messages: UIMessage[]): string {
  return lastParts(messages).flatMap((p) => (p.type === "text" ? [(p as unknown as { text: string }).text] : [])).join(" ");
}
