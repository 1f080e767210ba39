import { ORPCError } from "@orpc/server";
import { agentMeta } from "@orpc-agent/core";
import { z } from "zod";
import type { Store, Task } from "../domain/store.js";
import { base } from "./base.js";

const everywhere = { aiSdk: true, direct: true } as const;

function taskOf(store: Store, taskId: string): Task {
  const task = store.tasks.get(taskId);
  if (!task) throw new ORPCError("NOT_FOUND", { message: `No task ${taskId}.` });
  return task;
}

export const moveTask = base
  .input(z.object({ taskId: z.string(), status: z.enum(["todo", "doing", "done"]) }))
  .meta(agentMeta({ description: "Move a task to another status column (todo, doing, done).", expose: everywhere, sideEffect: "write", risk: "medium" }))
  .handler(({ input, context }) => {
    const task = taskOf(context.store, input.taskId);
    task.status = input.status;
    context.store.effects.moved += 1;
    return { taskId: task.id, title: task.title, status: task.status };
  });

export const assignTask = base
  .input(z.object({ taskId: z.string(), assigneeId: z.string().nullable() }))
  .meta(agentMeta({ description: "Assign a task to a person, or unassign it with null.", expose: everywhere, sideEffect: "write", risk: "low" }))
  .handler(({ input, context }) => {
    const task = taskOf(context.store, input.taskId);
    task.assigneeId = input.assigneeId;
    return { taskId: task.id, assigneeId: task.assigneeId };
  });
