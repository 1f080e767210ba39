// SI-12 (exactly one outcome per execution) for MCP tasks on the PostgreSQL task store (issues 47, 48): a task's result
// is stored as jsonb, which cannot hold the character U+0000 that a JSON string may carry. A capability whose output
// holds one has run; its task must still end, on every instance, rather than read `working` until it expires.
import { agentMeta, createCapabilityRegistry } from "@orpc-agent/core";
import { createMCPHandler, type MCPTaskRecord } from "@orpc-agent/mcp";
import { createPgMCPTaskStore, INVOCATIONS_DDL, type PgQuery } from "@orpc-agent/postgres";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { elicitationOptions, runtimeOf } from "../../packages/mcp/test/approvals/approvals-app.js";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { listenModern } from "../../packages/mcp/test/support/handler.js";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { raw } from "../../packages/mcp/test/tasks/tasks-app.js";
import { usePgSchema } from "../../packages/postgres/test/support/real-server.js";

closeEverythingAfterEachTest();

const db = usePgSchema("adv_si12_task_nul", [INVOCATIONS_DDL], { max: 6 });

describe("SI-12: a task whose output PostgreSQL cannot store as jsonb", () => {
  it("SI-12: a task: \"always\" call returning a NUL character ends (not `working` for ever) on both instances; it ran once", async () => {
    const runs: string[] = [];
    const registry = createCapabilityRegistry({
      texts: {
        echo: ap
          .input(z.object({ text: z.string() }))
          .meta(agentMeta({ description: "Echo.", expose: { mcp: true }, sideEffect: "read", risk: "low", adapters: { mcp: { task: "always" } } } as never))
          .handler(({ input }) => {
            runs.push(input.text);
            return { text: `${input.text}\u0000` };
          }),
      },
    });
    const { runtime } = runtimeOf(registry);
    // Resolves once a final write of the task was stored.
    let finalWrite!: () => void;
    const finalWritten = new Promise<void>((resolve) => (finalWrite = resolve));
    const query: PgQuery = async (sql, params) => {
      const result = await db.query(sql, params);
      if (sql.startsWith("update") && String(params?.[3] ?? "").includes('"phase":"done"') && result.rows.length > 0) finalWrite();
      return result;
    };
    const tasks = { store: createPgMCPTaskStore<MCPTaskRecord>({ query }), pollIntervalMs: 5 };
    const a = await listenModern((url) => createMCPHandler(runtime, elicitationOptions(url, { tasks })));
    const b = await listenModern((url) => createMCPHandler(runtime, elicitationOptions(url, { tasks })));
    const task = (await raw(a.url, "tok-dana", "tools/call", { name: "texts_echo", arguments: { text: "hello" } })).result!;
    expect(task).toMatchObject({ resultType: "task", status: "working" });
    await finalWritten;
    for (const url of [a.url, b.url]) {
      const answer = (await raw(url, "tok-dana", "tasks/get", { taskId: task.taskId })).result!;
      // Its output could not be kept: the task says so instead of inventing a result.
      expect(answer).toMatchObject({ status: "failed", statusMessage: expect.stringMatching(/effect is unknown/) });
      expect(answer.result).toBeUndefined();
    }
    expect(runs).toEqual(["hello"]);
  });
});
