// Issue 48, items 2 and 3: a decision reaches the instance that holds the waiting connection. A 2025-11-25 client
// is connected over stdio to its own instance process (a connection that outlives its calls); the approver
// decides on an HTTP instance of the cluster; PostgreSQL LISTEN/NOTIFY (the decision feed) carries the decision
// to the stdio instance, which sends `notifications/elicitation/complete`; the client's retry then runs once.
// The v1 SDK is imported by path: this folder has no dependency of its own on it (the MCP package does).
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { Client as LegacyClient } from "../../packages/mcp/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js";
import { StdioClientTransport } from "../../packages/mcp/node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.js";
import { ElicitationCompleteNotificationSchema } from "../../packages/mcp/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js";
import { verifyClusterAudit } from "./support/audit-verify.js";
import { useCluster, type Cluster } from "./support/cluster.js";
import { MANAGER } from "./support/cluster-config.js";

type Result = { structuredContent?: unknown };

let cluster: Cluster;
useCluster("orpc_mi_complete", 2, (started) => (cluster = started));

describe("several instances, one PostgreSQL: notifications/elicitation/complete", () => {
  it("decided on an HTTP instance, heard by the stdio instance holding the client's connection; the retry runs once", async () => {
    const { command, args, cwd, env } = cluster.stdioCommand();
    const transport = new StdioClientTransport({ command, args, cwd, env, stderr: "pipe" });
    const stderr = transport.stderr as Readable;
    let lines = "";
    stderr.on("data", (chunk: Buffer) => (lines += chunk.toString("utf8")));
    const exited = new Promise<void>((resolve) => stderr.once("close", () => resolve()));
    const client = new LegacyClient({ name: "stdio-complete", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
    const completed: string[] = [];
    let heard!: () => void;
    const hearing = new Promise<void>((resolve) => (heard = resolve));
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
      completed.push(notification.params.elicitationId);
      heard();
    });
    await client.connect(transport);
    try {
      const call = () => client.callTool({ name: "payments_refund", arguments: { orderId: "complete-1", amount: 11 } });
      const error = (await call().then(
        () => undefined,
        (e: unknown) => e,
      )) as { code?: number; data?: { elicitations?: { url: string; elicitationId: string }[] } };
      expect(error?.code, JSON.stringify(error)).toBe(-32042);
      const { elicitationId, url } = error.data!.elicitations![0]!;
      const approvalId = new URL(url).pathname.split("/").pop()!;

      // The approver's app runs on the HTTP instances; the stdio instance learns of it only from the database.
      expect((await cluster.decide(cluster.instances[1]!.name, approvalId, { status: "approved", approver: MANAGER })).body).toMatchObject({ status: "approved" });
      await hearing;
      expect(completed).toEqual([elicitationId]);

      expect(((await call()) as Result).structuredContent).toEqual({ status: "ok", data: { refunded: 11 } });
      expect(await cluster.effects("complete-1")).toEqual([{ instance: "stdio", capability: "payments.refund" }]);
    } finally {
      // Closing the client ends stdin: the stdio instance drains its audit trail and exits.
      await client.close();
      await exited;
    }
    expect(lines).toContain("effect payments.refund complete-1");

    await cluster.stop();
    const { run, chains, signers } = await verifyClusterAudit(cluster);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // The instance that decided and the stdio instance that executed each kept a chain.
    expect(signers).toEqual(expect.arrayContaining(["i1", "stdio"]));
    expect(run.stdout).toContain(`in ${chains} chain(s)`);
    expect(run.stdout).toContain("intact");
  });
});
