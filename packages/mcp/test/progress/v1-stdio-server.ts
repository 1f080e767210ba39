// The progress app on the deprecated v1 entry over stdio (SDK v1), as one fixed actor. Run from packages/mcp:
// node --conditions=@orpc-agent/source --import tsx test/progress/v1-stdio-server.ts
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createMCPServer } from "../../src/v1/index.js";
import { dana } from "../support/app.js";
import { createProgressApp } from "./progress-app.js";

await createMCPServer(createProgressApp().runtime, { createContext: () => ({ actor: dana, context: { tenant: "stdio" } }) }).connect(new StdioServerTransport());
