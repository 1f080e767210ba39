// docs/architecture/spec/adapters.md#adapters-3-10 item 16: the runnable stdio example, spawned as a child process, lists and calls tools through
// the SDK's StdioClientTransport. Workspace sources run through tsx and the "@orpc-agent/source" export condition.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { closeAfterTest, closeEverythingAfterEachTest } from "../support/cleanup.js";

closeEverythingAfterEachTest();

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const example = fileURLToPath(new URL("./examples/stdio-server.ts", import.meta.url));

async function spawnExample(): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--conditions=@orpc-agent/source", "--import", "tsx", example],
    cwd: packageDir,
    stderr: "pipe",
  });
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  closeAfterTest(() => client.close());
  await client.connect(transport);
  return { client, transport };
}

describe("stdio example (child process)", () => {
  it("lists its tools and calls them through StdioClientTransport", async () => {
    const { client, transport } = await spawnExample();
    expect(transport.pid).toBeGreaterThan(0);
    expect(client.getServerVersion()?.name).toBe("orpc-agent");

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["notes_search", "notes_clear", "approvals_resume"]);
    expect(tools[1]).toMatchObject({ description: "Delete every note. Requires approval.", annotations: { destructiveHint: true } });

    const found = await client.callTool({ name: "notes_search", arguments: { text: "milk" } });
    expect(found.structuredContent).toEqual({ status: "ok", data: { notes: ["Buy milk", "Milk the cow"] } });
    expect(found.isError).toBe(false);

    const invalid = await client.callTool({ name: "notes_search", arguments: { text: 7 } });
    expect(invalid.structuredContent).toMatchObject({ status: "error", error: { code: "INPUT_INVALID" } });
    expect(invalid.isError).toBe(true);

    const gated = await client.callTool({ name: "notes_clear", arguments: {} });
    expect(gated.structuredContent).toMatchObject({ status: "approval-required", approvalId: expect.stringMatching(/^apr_/) });
    const pending = await client.callTool({ name: "approvals_resume", arguments: { approvalId: (gated.structuredContent as { approvalId: string }).approvalId } });
    expect(pending.structuredContent).toMatchObject({ status: "error", error: { code: "APPROVAL_PENDING", retryable: true } });
  });

  it("the child exits when the client closes its stdin", async () => {
    const { client, transport } = await spawnExample();
    const pid = transport.pid!;
    await client.close();
    await expect.poll(() => isRunning(pid), { timeout: 10_000, interval: 50 }).toBe(false);
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
