// A stdio server on the v2 SDK for the era tests: the test app's tools as one fixed actor (stdio carries no
// credentials). Run from packages/mcp: node --conditions=@orpc-agent/source --import tsx test/stdio/stdio-server.ts
import { serveMCPStdio } from "../../src/stdio/serve-stdio.js";
import { createTestApp, dana } from "../support/app.js";

const app = createTestApp();
serveMCPStdio(app.runtime, {
  createContext: ({ authInfo }) => (authInfo === undefined ? { actor: dana, context: { tenant: "stdio" } } : null),
  approvals: { resumeTool: true },
});
console.error("orpc-agent MCP server on stdio");
