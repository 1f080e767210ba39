// SI-8 attacks on MCP Tasks (issue 47), from outside over loopback HTTP with raw 2026-07-28 requests: another
// principal (another user, or the same user through another OAuth client) polling, updating or cancelling a victim's
// task; guessed task ids; a tasks/update that tries to answer the approval itself. Every foreign or guessed id must
// answer exactly like an unknown one, and nothing but the runtime's decision may move the approval.
import { describe, expect, it } from "vitest";
import type { MCPHandlerOptions } from "@orpc-agent/mcp";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { nowInSeconds } from "../../packages/mcp/test/support/handler.js";
import { approve } from "../../packages/mcp/test/approvals/approvals-app.js";
import { createTasksApp, pollUntil, raw, serveTasks, startTask } from "../../packages/mcp/test/tasks/tasks-app.js";

closeEverythingAfterEachTest();

/** Tokens: dana through agent-1, dana through agent-2 (another principal: `via` differs), priya through agent-1. */
const PRINCIPALS: Record<string, { user: string; client: string }> = {
  "tok-dana": { user: "u_dana", client: "agent-1" },
  "tok-dana-via-2": { user: "u_dana", client: "agent-2" },
  "tok-priya": { user: "u_priya", client: "agent-1" },
};
const principalOptions = (url: URL): Partial<MCPHandlerOptions> =>
  ({
    verifyToken: (token: string) => {
      const principal = PRINCIPALS[token];
      return principal === undefined ? null : { token, clientId: principal.client, scopes: [], expiresAt: nowInSeconds() + 3600, resource: url };
    },
    createContext: ({ authInfo }: { authInfo?: { token: string } }) => {
      const principal = PRINCIPALS[authInfo?.token ?? ""];
      return principal === undefined ? null : { actor: { id: principal.user, kind: "user" }, context: {} };
    },
  }) as Partial<MCPHandlerOptions>;

async function serve() {
  const app = createTasksApp();
  const served = await serveTasks(app, principalOptions);
  return { app, url: served.url };
}

const UNKNOWN_ID = "task_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const strip = (answer: { error?: unknown; result?: unknown }) => answer;

describe("SI-8: another principal's task answers exactly like an unknown one", () => {
  it.each(["tok-priya", "tok-dana-via-2"])("SI-8: %s polling, updating and cancelling the victim's task gets the unknown-task answer, and the task is untouched", async (attacker) => {
    const { app, url } = await serve();
    const { taskId, approvalId } = await startTask(url, "tok-dana");
    for (const [method, extra] of [
      ["tasks/get", {}],
      ["tasks/update", { inputResponses: { approval: { action: "accept" } } }],
      ["tasks/cancel", {}],
    ] as const) {
      const unknown = await raw(url, attacker, method, { taskId: UNKNOWN_ID, ...extra });
      expect(unknown.error).toMatchObject({ code: -32602, message: "Failed to retrieve task: Task not found" });
      expect(strip(await raw(url, attacker, method, { taskId, ...extra }))).toEqual(unknown);
    }
    // The victim's task is as it was: still asking for the link, not cancelled, the approval pending.
    expect((await raw(url, "tok-dana", "tasks/get", { taskId })).result).toMatchObject({ status: "input_required" });
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("pending");
    // After the decision, the attacker still cannot read the result; the victim can.
    await approve(app, approvalId);
    expect((await raw(url, attacker, "tasks/get", { taskId })).error?.message).toBe("Failed to retrieve task: Task not found");
    expect((await pollUntil(url, "tok-dana", taskId)).result).toMatchObject({ status: "completed", result: { structuredContent: { status: "ok" } } });
    expect((await raw(url, attacker, "tasks/get", { taskId })).error?.message).toBe("Failed to retrieve task: Task not found");
    expect(app.executions).toHaveLength(1);
  });

  it("SI-8: a cancel by another principal racing the victim's polls changes nothing for the victim", async () => {
    const { app, url } = await serve();
    const { taskId, approvalId } = await startTask(url, "tok-dana");
    await approve(app, approvalId);
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => raw(url, "tok-priya", "tasks/cancel", { taskId })),
      pollUntil(url, "tok-dana", taskId),
    ]);
    expect(answers.at(-1)!.result).toMatchObject({ status: "completed" });
    expect(app.executions).toHaveLength(1);
  });
});

describe("SI-8: guessed task ids", () => {
  it("SI-8: ids near a real one, in other cases, padded, truncated, empty or long answer exactly as the same guess made from an unknown id", async () => {
    const { url } = await serve();
    const { taskId } = await startTask(url, "tok-dana");
    const unknown = await raw(url, "tok-dana", "tasks/get", { taskId: UNKNOWN_ID });
    const guesses: [string, (id: string) => string][] = [
      ["the last character changed", (id) => `${id.slice(0, -1)}${id.at(-1) === "A" ? "B" : "A"}`],
      ["upper-cased", (id) => id.toUpperCase()],
      ["lower-cased", (id) => id.toLowerCase()],
      ["truncated", (id) => id.slice(0, -1)],
      ["extended", (id) => `${id}A`],
      ["the prefix only", () => "task_"],
      ["empty", () => ""],
      ["__proto__", () => "__proto__"],
      // Not carried by an Mcp-Name header as is: the transport refuses the request before any lookup.
      ["padded", (id) => ` ${id}`],
      ["long", (id) => id.repeat(50)],
    ];
    // A transport refusal echoes the caller's own id back; with the id blanked out the answers must be identical.
    const blank = (answer: unknown, id: string) => JSON.stringify(answer).split(id.toUpperCase()).join("<id>").split(id.toLowerCase()).join("<id>").split(id).join("<id>");
    for (const [label, guess] of guesses) {
      const answer = await raw(url, "tok-dana", "tasks/get", { taskId: guess(taskId) });
      expect(answer.result, label).toBeUndefined();
      expect(blank(answer, taskId), label).toBe(blank(await raw(url, "tok-dana", "tasks/get", { taskId: guess(UNKNOWN_ID) }), UNKNOWN_ID));
    }
    expect(await raw(url, "tok-dana", "tasks/get", { taskId: taskId.toUpperCase() === taskId ? taskId.toLowerCase() : taskId.toUpperCase() })).toEqual(unknown);
  });

  it("SI-8: task ids carry 256 random bits (43 base64url characters after the prefix) and never repeat", async () => {
    const { url } = await serve();
    const ids = new Set<string>();
    for (let i = 0; i < 40; i++) ids.add((await startTask(url, "tok-dana")).taskId);
    expect(ids.size).toBe(40);
    for (const id of ids) expect(id).toMatch(/^task_[A-Za-z0-9_-]{43}$/);
  });
});

describe("SI-8 / SI-4: a tasks/update cannot answer the approval", () => {
  const HOSTILE: [string, Record<string, unknown>][] = [
    ["accept with content claiming approval", { approval: { action: "accept", content: { approved: true, status: "approved", approver: "u_manager" } } }],
    ["an action outside the three", { approval: { action: "approve" } }],
    ["a key named after the approval", { "apr_any": { action: "accept" } }],
    ["decision-shaped keys", { decision: { status: "approved" }, status: "approved" }],
    ["confusable keys", { Approval: { action: "accept" }, "approval\u200B": { action: "accept" } }],
  ];
  it.each(HOSTILE)("SI-4: the owner's tasks/update with %s acknowledges and decides nothing: the approval stays pending, nothing runs", async (_label, inputResponses) => {
    const { app, url } = await serve();
    const { taskId, approvalId } = await startTask(url, "tok-dana");
    expect((await raw(url, "tok-dana", "tasks/update", { taskId, inputResponses })).error).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const polled = (await raw(url, "tok-dana", "tasks/get", { taskId })).result!;
      expect(["input_required", "working"]).toContain(polled.status);
    }
    expect((await app.runtime.approvals.get(approvalId))?.status).toBe("pending");
    expect(app.executions).toEqual([]);
  });

  it("SI-4: answering the link twice, then a rejection in the app: the task completes with APPROVAL_REJECTED, nothing ran", async () => {
    const { app, url } = await serve();
    const { taskId, approvalId } = await startTask(url, "tok-dana");
    for (let i = 0; i < 2; i++) await raw(url, "tok-dana", "tasks/update", { taskId, inputResponses: { approval: { action: "accept" } } });
    await app.runtime.approvals.decide(approvalId, { status: "rejected", approver: { id: "u_manager", kind: "user" }, comment: "no" });
    expect((await pollUntil(url, "tok-dana", taskId)).result).toMatchObject({ status: "completed", result: { isError: true, structuredContent: { error: { code: "APPROVAL_REJECTED" } } } });
    expect(app.executions).toEqual([]);
  });
});
