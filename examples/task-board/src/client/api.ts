// The page's view of the server: plain JSON endpoints, the signed-in person in `as` (the example's stand-in for a session).
import type { GovernedUIDataTypes } from "@orpc-agent/ai-sdk";
import type { UIMessage } from "ai";
import type { Board, Task } from "../domain/store.js";
import type { ApprovalCard } from "../server/approvals.js";

export type BoardMessage = UIMessage<unknown, GovernedUIDataTypes>;
export type BoardWithTasks = Board & { tasks: Task[] };
export type Person = { id: string; displayName?: string };
export type { ApprovalCard };

export const withAs = (path: string, as: string) => `${path}?as=${encodeURIComponent(as)}`;

export async function getJson<T>(path: string, as: string): Promise<T> {
  const res = await fetch(withAs(path, as));
  return (await res.json()) as T;
}

export async function decide(id: string, as: string, decision: "approved" | "rejected", comment: string): Promise<{ ok: boolean; text: string }> {
  const res = await fetch(withAs(`/api/approvals/${encodeURIComponent(id)}/decide`, as), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ decision, comment }),
  });
  return (await res.json()) as { ok: boolean; text: string };
}
