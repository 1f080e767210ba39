// The task board's data: boards with an owner, tasks with a status and an assignee. In memory, seeded the same way
// every time; the governed parts of the app (approvals, audit) live in the database instead.

export type TaskStatus = "todo" | "doing" | "done";
export type Board = { id: string; name: string; ownerId: string };
export type Task = { id: string; boardId: string; title: string; status: TaskStatus; assigneeId: string | null };

export type Store = {
  boards: Map<string, Board>;
  tasks: Map<string, Task>;
  /** How many times each handler changed something, so tests and the demo can show what ran. */
  effects: { moved: number; deleted: number; reindexed: number };
};

export function createStore(): Store {
  const boards: Board[] = [
    { id: "b_launch", name: "Launch", ownerId: "u_ada" },
    { id: "b_ops", name: "Ops", ownerId: "u_ben" },
  ];
  const tasks: Task[] = [
    { id: "t_notes", boardId: "b_launch", title: "Write the release notes", status: "doing", assigneeId: "u_ada" },
    { id: "t_site", boardId: "b_launch", title: "Update the landing page", status: "todo", assigneeId: null },
    { id: "t_keys", boardId: "b_ops", title: "Rotate the on-call keys", status: "doing", assigneeId: "u_ada" },
    { id: "t_alerts", boardId: "b_ops", title: "Tune the disk alerts", status: "todo", assigneeId: "u_ben" },
  ];
  return {
    boards: new Map(boards.map((b) => [b.id, b])),
    tasks: new Map(tasks.map((t) => [t.id, t])),
    effects: { moved: 0, deleted: 0, reindexed: 0 },
  };
}

/** The boards with their tasks, as the page and the `boards.list` capability show them. */
export function boardView(store: Store): (Board & { tasks: Task[] })[] {
  return [...store.boards.values()].map((board) => ({ ...board, tasks: [...store.tasks.values()].filter((t) => t.boardId === board.id) }));
}
