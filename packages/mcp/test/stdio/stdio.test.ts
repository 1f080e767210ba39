// stdio serves both eras from one process type: the v2 SDK Client (2026-07-28) and the v1 SDK Client (initialize)
// each spawn the server as a child process and list and call through it.
import { fileURLToPath } from "node:url";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { closeAfterTest, closeEverythingAfterEachTest } from "../support/cleanup.js";

closeEverythingAfterEachTest();

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const server = { command: process.execPath, args: ["--conditions=@orpc-agent/source", "--import", "tsx", fileURLToPath(new URL("./stdio-server.ts", import.meta.url))], cwd: packageDir, stderr: "pipe" as const };

type Result = { structuredContent?: unknown };

describe("stdio, both eras", () => {
  it("the README example lists and calls for the v2 Client", async () => {
    const example = { ...server, args: ["--conditions=@orpc-agent/source", "--import", "tsx", fileURLToPath(new URL("../examples/stdio-server.ts", import.meta.url))] };
    const client = new ModernClient({ name: "stdio-readme", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    closeAfterTest(() => client.close());
    await client.connect(new ModernStdio(example));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["notes_search", "notes_clear", "approvals_resume"]);
    const found = (await client.callTool({ name: "notes_search", arguments: { text: "milk" } })) as Result;
    expect(found.structuredContent).toEqual({ status: "ok", data: { notes: ["Buy milk", "Milk the cow"] } });
  });

  it("the v2 Client on 2026-07-28 lists and calls", async () => {
    const client = new ModernClient({ name: "stdio-modern", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    closeAfterTest(() => client.close());
    await client.connect(new ModernStdio(server));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("notes_whoami");
    expect(tools.map((tool) => tool.name)).not.toContain("admin_purge");
    const result = (await client.callTool({ name: "notes_whoami", arguments: {} })) as Result;
    expect(result.structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "stdio" } });
  });

  it("the v1 Client on 2025-11-25 lists and calls, concealment identical", async () => {
    const client = new LegacyClient({ name: "stdio-legacy", version: "1" });
    closeAfterTest(() => client.close());
    await client.connect(new LegacyStdio(server));
    expect(client.getServerVersion()?.name).toBe("orpc-agent");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("notes_whoami");
    const result = (await client.callTool({ name: "notes_whoami", arguments: {} })) as Result;
    expect(result.structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "stdio" } });
    const hidden = await client.callTool({ name: "admin_purge", arguments: {} });
    const unknown = await client.callTool({ name: "no_such_tool", arguments: {} });
    expect(JSON.stringify(hidden)).toBe(JSON.stringify(unknown));
  });
});
