// The Inspector CLI's stdio target: the inspector app as one fixed actor (stdio carries no credentials).
// Run from packages/mcp: node --conditions=@orpc-agent/source --import tsx test/interop/inspector-stdio-server.ts
import { serveMCPStdio } from "../../src/stdio/serve-stdio.js";
import { dana } from "../support/app.js";
import { createInspectorApp } from "./inspector-app.js";

serveMCPStdio(createInspectorApp().runtime, {
  createContext: ({ authInfo }) => (authInfo === undefined ? { actor: dana, context: { tenant: "stdio" } } : null),
});
