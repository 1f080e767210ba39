// Construction refuses URL elicitation options it cannot work with, before any request (TypeError).
import { describe, expect, it } from "vitest";
import { createMCPHandler } from "../../src/http/create-handler.js";
import type { MCPHandlerOptions } from "../../src/http/handler-options.js";
import { serveMCPStdio } from "../../src/stdio/serve-stdio.js";
import { approvalUrl, createApprovalsApp, STATE_KEYS } from "./approvals-app.js";

const base: MCPHandlerOptions = { allowUnauthenticated: true, createContext: () => ({ actor: { id: "u_dana", kind: "user" }, context: {} }) };
const url = { url: (record: { id: string }) => approvalUrl(record.id) };

describe("urlElicitation and traceContext options", () => {
  it("urlElicitation needs approvals.url, the link the client opens", () => {
    const { runtime } = createApprovalsApp();
    expect(() => createMCPHandler(runtime, { ...base, urlElicitation: { keys: STATE_KEYS } })).toThrow(/urlElicitation needs options\.approvals\.url/);
    expect(() => serveMCPStdio(runtime, { createContext: base.createContext, urlElicitation: { keys: STATE_KEYS } })).toThrow(TypeError);
  });

  it("keys follow the seal's rules: non-empty, named, 32-byte secrets", () => {
    const { runtime } = createApprovalsApp();
    expect(() => createMCPHandler(runtime, { ...base, approvals: url, urlElicitation: { keys: [] } })).toThrow(/urlElicitation\.keys must be a non-empty array/);
    expect(() => createMCPHandler(runtime, { ...base, approvals: url, urlElicitation: { keys: [{ id: "k1", secret: "short" }] } })).toThrow(/32 bytes/);
    expect(() => createMCPHandler(runtime, { ...base, approvals: url, urlElicitation: { keys: [{ id: "not ok", secret: STATE_KEYS[0]!.secret }] } })).toThrow(TypeError);
  });

  it("decisions and traceContext must be functions", () => {
    const { runtime } = createApprovalsApp();
    expect(() => createMCPHandler(runtime, { ...base, approvals: url, urlElicitation: { keys: STATE_KEYS, decisions: "yes" as never } })).toThrow(/decisions must be a function/);
    expect(() => createMCPHandler(runtime, { ...base, traceContext: {} as never })).toThrow(/traceContext must be a function/);
    expect(() => createMCPHandler(runtime, { ...base, approvals: url, urlElicitation: { keys: STATE_KEYS } })).not.toThrow();
  });
});
