// Issue 48, item 3: AI SDK UI answers across instances. The chat request that meets a requester confirmation is
// served by one instance, the browser's answer by the next; the confirmation is decided and executed once there,
// and the same answer replayed on the third instance is refused and runs nothing.
import { describe, expect, it } from "vitest";
import { verifyClusterAudit } from "./support/audit-verify.js";
import { useCluster, type Cluster } from "./support/cluster.js";

type Part = { type: string; toolCallId?: string; state?: string; output?: unknown; data?: { approvalId?: string; state?: string } };
type Message = { id: string; role: string; parts: Part[] };
type Outcome = { approvalId: string; toolCallId: string; outcome: string; result?: unknown };
type ChatAnswer = { messages: Message[]; outcomes: Outcome[] };

let cluster: Cluster;
useCluster("orpc_mi_chat", 3, (started) => (cluster = started));

/** One chat request through the proxy; returns the instance that served it too. */
async function chat(body: Record<string, unknown>): Promise<ChatAnswer & { servedBy: string }> {
  const response = await fetch(`${cluster.proxy.url}/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const servedBy = cluster.proxy.served.at(-1)!;
  expect(response.status, await response.clone().text()).toBe(200);
  return { ...((await response.json()) as ChatAnswer), servedBy };
}

const toolCall = (toolCallId: string, toolName: string, input: unknown) => ({ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) });
const text = (value: string) => ({ type: "text", text: value });
const user = (value: string): Message => ({ id: "user_1", role: "user", parts: [{ type: "text", text: value } as Part] });

describe("several instances, one PostgreSQL: AI SDK UI answers", () => {
  it("asked on one instance, answered on the next, executed once; the replayed answer on the third runs nothing", async () => {
    const first = await chat({ messages: [user("Tell the customer.")], turns: [[toolCall("call_send", "notes_send", { to: "c_1", text: "Ships today." })], [text("Please confirm the note.")]] });
    const card = first.messages.flatMap((m) => m.parts).find((p) => p.type === "data-agent-approval")!;
    const approvalId = card.data!.approvalId!;
    expect(approvalId).toMatch(/^apr_/);
    expect(await cluster.effects("c_1")).toHaveLength(0);

    const answers = [{ approvalId, approved: true }];
    const second = await chat({ messages: first.messages, answers, turns: [[text("Sent.")]] });
    expect(second.servedBy).not.toBe(first.servedBy);
    expect(second.outcomes).toEqual([{ approvalId, toolCallId: "call_send", outcome: "executed", result: { status: "ok", data: { sent: "c_1" } } }]);
    expect(second.messages.flatMap((m) => m.parts).find((p) => p.toolCallId === "call_send")).toMatchObject({ state: "output-available", output: { status: "ok", data: { sent: "c_1" } } });
    expect(await cluster.effects("c_1")).toEqual([{ instance: second.servedBy, capability: "notes.send" }]);

    // SI-4 across instances: the same answer again, on another instance, executes nothing.
    const replay = await chat({ messages: first.messages, answers, turns: [[text("Again?")]] });
    expect(new Set([first.servedBy, second.servedBy, replay.servedBy]).size).toBe(3);
    // The same refusal as on one process.
    expect(replay.outcomes).toEqual([{ approvalId, toolCallId: "call_send", outcome: "refused", result: { status: "error", error: { code: "FORBIDDEN", message: "This confirmation was not accepted.", retryable: false } } }]);
    expect(await cluster.effects("c_1")).toHaveLength(1);
  });

  it("afterwards the audit chains of all instances verify together", async () => {
    await cluster.stop();
    const { run, chains, signers } = await verifyClusterAudit(cluster);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(signers).toEqual(["i0", "i1", "i2"]);
    expect(run.stdout).toContain(`in ${chains} chain(s)`);
    expect(run.stdout).toContain("intact");
  });
});
