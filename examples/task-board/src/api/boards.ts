import { ORPCError } from "@orpc/server";
import { agentMeta } from "@orpc-agent/core";
import { z } from "zod";
import { boardView } from "../domain/store.js";
import { base } from "./base.js";

const everywhere = { aiSdk: true, direct: true } as const;

export const listBoards = base
  .meta(agentMeta({ description: "List the boards with their tasks, statuses and assignees.", expose: everywhere, sideEffect: "read", risk: "low" }))
  .handler(({ context }) => boardView(context.store));

export const deleteBoard = base
  .input(z.object({ boardId: z.string() }))
  .meta(agentMeta({ description: "Delete a board and all its tasks.", expose: everywhere, sideEffect: "destructive", risk: "high" }))
  .handler(({ input, context }) => {
    const board = context.store.boards.get(input.boardId);
    if (!board) throw new ORPCError("NOT_FOUND", { message: `No board ${input.boardId}.` });
    if (board.ownerId !== context.user.id) throw new ORPCError("FORBIDDEN", { message: "Only the board's owner deletes it." });
    for (const task of [...context.store.tasks.values()]) if (task.boardId === board.id) context.store.tasks.delete(task.id);
    context.store.boards.delete(board.id);
    context.store.effects.deleted += 1;
    return { deleted: board.id };
  });
