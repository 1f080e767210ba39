// MCP progress on the deprecated v1 entry (`@orpc-agent/mcp/v1`, issue 46): the v1 SDK Client over
// createMCPHttpHandler on loopback (stateful sessions) and over stdio (createMCPServer in a child process).
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe } from "vitest";
import { createMCPHttpHandler } from "../../src/v1/index.js";
import { dana } from "../support/app.js";
import { closeAfterTest, closeEverythingAfterEachTest } from "../support/cleanup.js";
import { connectHttp, listen } from "../support/http.js";
import { legacyProgressClient } from "./eras.js";
import { createProgressApp } from "./progress-app.js";
import { inOrderCases, progressCases } from "./progress-cases.js";

closeEverythingAfterEachTest();

describe("progress on the v1 entry over HTTP (v1 Client)", () => {
  const connect = async () => {
    const handler = createMCPHttpHandler(createProgressApp().runtime, {
      verifyToken: (token) => (token === "tok-dana" ? { token, clientId: "c1", scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 } : null),
      createContext: (session) => (session.authInfo?.token === "tok-dana" ? { actor: dana, context: { tenant: "t1" } } : null),
    });
    const { url } = await listen(handler);
    return legacyProgressClient((await connectHttp(url, "tok-dana")).client);
  };
  progressCases(connect);
  inOrderCases(connect);
});

describe("progress on the v1 entry over stdio (v1 Client)", () => {
  progressCases(async () => {
    const client = new Client({ name: "stdio-progress-v1", version: "1" });
    closeAfterTest(() => client.close());
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--conditions=@orpc-agent/source", "--import", "tsx", fileURLToPath(new URL("./v1-stdio-server.ts", import.meta.url))],
        cwd: fileURLToPath(new URL("../..", import.meta.url)),
        stderr: "pipe",
      }),
    );
    return legacyProgressClient(client);
  });
});
