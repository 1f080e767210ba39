// MCP progress over stdio (issue 46): the v2 Client on 2026-07-28 and the v1 Client on 2025-11-25, each spawning
// the server as a child process.
import { fileURLToPath } from "node:url";
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe } from "vitest";
import { closeAfterTest, closeEverythingAfterEachTest } from "../support/cleanup.js";
import { legacyProgressClient, modernProgressClient } from "./eras.js";
import { progressCases } from "./progress-cases.js";

closeEverythingAfterEachTest();

const server = {
  command: process.execPath,
  args: ["--conditions=@orpc-agent/source", "--import", "tsx", fileURLToPath(new URL("./stdio-server.ts", import.meta.url))],
  cwd: fileURLToPath(new URL("../..", import.meta.url)),
  stderr: "pipe" as const,
};

describe("progress over stdio, 2026-07-28 (v2 Client)", () => {
  progressCases(async () => {
    const client = new ModernClient({ name: "stdio-progress", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    closeAfterTest(() => client.close());
    await client.connect(new ModernStdio(server));
    return modernProgressClient(client);
  });
});

describe("progress over stdio, 2025-11-25 (v1 Client)", () => {
  progressCases(async () => {
    const client = new LegacyClient({ name: "stdio-progress", version: "1" });
    closeAfterTest(() => client.close());
    await client.connect(new LegacyStdio(server));
    return legacyProgressClient(client);
  });
});
