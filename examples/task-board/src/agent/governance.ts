import { allow, createCapabilityRegistry, defineGovernance, definePolicy, deny, hide, requireApproval } from "@orpc-agent/core";
import type { AppContext } from "../api/context.js";
import { router } from "../api/router.js";
import { nameOf } from "./people.js";

/** The approval type of a completion on someone else's board; only that board's owner decides it (see ../server/approvals.ts). */
export const BOARD_OWNER_APPROVAL = "board-owner";

export const registry = createCapabilityRegistry(router);

/** Finishing a task on a board you do not own waits for the board's owner; moves on your own board run at once. */
const doneNeedsOwner = definePolicy(
  "done-needs-board-owner",
  ({ input, actor, context }) => {
    const { taskId, status } = input as { taskId: string; status: string };
    const { store } = context as AppContext;
    const board = store.boards.get(store.tasks.get(taskId)?.boardId ?? "");
    if (status !== "done" || !board || board.ownerId === actor.id) return allow();
    return requireApproval({ reason: `Completing a task on ${board.name} needs its owner ${nameOf(board.ownerId)}'s approval.`, approvalType: BOARD_OWNER_APPROVAL });
  },
  { phases: ["invocation"], scope: { capabilities: { ids: ["tasks.move"] } } },
);

// Deny, not hide: the page shows the agent trying and the refusal it relays. Server code on `direct` is out of scope.
const noAgentDeletes = definePolicy("no-agent-board-deletion", () => deny("AGENTS_MAY_NOT_DELETE", "Agents may not delete boards; the owner deletes a board on the board page."), {
  phases: ["invocation"],
  scope: { capabilities: { ids: ["boards.delete"] }, surfaces: ["aiSdk", "mcp"] },
});

const internalForAdmins = definePolicy("internal-tools-for-admins", ({ context }) => ((context as AppContext).user?.role === "admin" ? allow() : hide()), {
  phases: ["discovery", "invocation"],
  scope: { capabilities: { tags: ["internal"] } },
});

/** What `orpc-agent check` reads, and what every runtime of this app evaluates. */
export const governance = defineGovernance({
  registry,
  policies: [doneNeedsOwner, noAgentDeletes, internalForAdmins],
});
