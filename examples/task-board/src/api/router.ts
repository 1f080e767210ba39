import { deleteBoard, listBoards } from "./boards.js";
import { reindexBoards } from "./internal.js";
import { assignTask, moveTask } from "./tasks.js";

/** The app's oRPC router; every procedure here is a capability the governance declares. */
export const router = {
  boards: { list: listBoards, delete: deleteBoard },
  tasks: { move: moveTask, assign: assignTask },
  internal: { reindex: reindexBoards },
};
