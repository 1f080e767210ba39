import type { AuthInfo } from "@modelcontextprotocol/server";
import type { ApprovalSealKey } from "@orpc-agent/core";
import type { MCPGovernanceOptions, MCPIdentity } from "../catalog/governance-options.js";
import type { MCPTraceCarrier } from "./trace-context.js";
import type { MCPTasksOption } from "../tasks/tasks-config.js";
import type { MCPElicitationStateStore } from "../approvals/elicitation-state-store.js";

export type { MCPTraceCarrier } from "./trace-context.js";

/** What the serving entry verified about one request: `authInfo` comes from bearer verification, never from the client. */
export type MCPRequestAuth = {
  /** The verified token; absent over stdio and on an `allowUnauthenticated` endpoint. */
  authInfo?: AuthInfo;
  /** The protocol revision family the request speaks: `modern` is 2026-07-28, `legacy` a 2025-era client. */
  era: "modern" | "legacy";
};

/** The governed server's options on the v2 SDK: the v1 options, with `createContext` judging each request. */
export type MCPOptions<TContext = unknown> = MCPGovernanceOptions & {
  /**
   * Judges one request's verified credentials and returns who is asking; `null`/`undefined` refuses the request.
   * Called on every request: the 2026-07-28 revision has no session to remember an identity by.
   */
  createContext: (
    request: MCPRequestAuth,
  ) => MCPIdentity<TContext> | null | undefined | Promise<MCPIdentity<TContext> | null | undefined>;
  /**
   * Approvals as URL elicitation, for clients that declare it (needs `approvals.url`): a 2026-07-28 client gets an
   * `input_required` result with an `elicitUrl` request and a `requestState`, a 2025-11-25 client the `-32042` error;
   * both retry the call, which then resumes the approval. `keys` HMAC-protect the `requestState` (the first signs,
   * every one verifies; secrets of at least 32 bytes; not the `approvals.seal` keys). Without it, or for clients
   * without URL elicitation, approvals answer with the envelope (and the resume tool, when enabled).
   */
  urlElicitation?: {
    keys: readonly ApprovalSealKey[];
    /**
     * Where the app reports decided approvals (call the listener with the approval id after
     * `runtime.approvals.decide`; return an unsubscribe function). With it, a 2025-11-25 client on a connection
     * that outlives the call (stdio) gets `notifications/elicitation/complete` when its approval is decided.
     */
    decisions?: (listener: (approvalId: string) => void) => (() => void) | void;
    /**
     * Where the endpoint remembers, per principal, the approvals 2025-11-25 retries resume and the capabilities
     * 2025-era clients declared in `initialize`. Default: this process's memory, bounded. Behind a load balancer,
     * give every instance one shared store (`createPgMCPElicitationStateStore` from `@orpc-agent/postgres`), so a
     * retry or a call reaching another instance than the `initialize` or the first call finds it.
     */
    store?: MCPElicitationStateStore;
  };
  /**
   * Runs each `tools/call` inside the trace context its request `_meta` carries (`traceparent`, `tracestate`), so
   * the runtime's spans join the client's trace: e.g. `withTraceContext` from `@orpc-agent/opentelemetry`.
   * Called only when a `traceparent` is present; a trace context never influences governance.
   */
  traceContext?: <T>(carrier: MCPTraceCarrier, run: () => Promise<T>) => Promise<T>;
  /**
   * The MCP Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) for 2026-07-28 clients that declare it: a
   * call that suspends for approval answers with a task the client polls (`tasks/get`) and that completes on the
   * server once the approval is decided; `tasks/cancel` cancels it. Clients that do not declare the extension keep
   * today's flows. Experimental, as the extension is (docs/guides/mcp-approvals.md, "Approvals as tasks").
   */
  tasks?: MCPTasksOption;
};
