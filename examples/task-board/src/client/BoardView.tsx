import type { BoardWithTasks, Person } from "./api.js";

const COLUMNS = ["todo", "doing", "done"] as const;

export function BoardView({ boards, people }: { boards: BoardWithTasks[]; people: Person[] }) {
  const name = (id: string | null) => (id ? (people.find((p) => p.id === id)?.displayName ?? id) : "nobody");
  return (
    <div id="boards">
      {boards.map((board) => (
        <div key={board.id} className="board" data-board={board.id}>
          <h2>
            {board.name} <span className="muted">owned by {name(board.ownerId)}</span>
          </h2>
          <div className="columns">
            {COLUMNS.map((status) => (
              <div key={status} className="column">
                <h3>{status}</h3>
                {board.tasks
                  .filter((task) => task.status === status)
                  .map((task) => (
                    <div key={task.id} className="task" data-task={task.id} data-status={task.status}>
                      {task.title}
                      <span className="muted"> · {name(task.assigneeId)}</span>
                    </div>
                  ))}
              </div>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
