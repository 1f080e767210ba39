// The progress app on stdio (v2 SDK), as one fixed actor. Run from packages/mcp:
// node --conditions=@orpc-agent/source --import tsx test/progress/stdio-server.ts
import { serveMCPStdio } from "../../src/stdio/serve-stdio.js";
import { dana } from "../support/app.js";
import { createProgressApp } from "./progress-app.js";

serveMCPStdio(createProgressApp().runtime, {
  createContext: ({ authInfo }) => (authInfo === undefined ? { actor: dana, context: { tenant: "stdio" } } : null),
});
