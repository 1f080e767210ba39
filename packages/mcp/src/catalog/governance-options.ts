import type { Actor, ApprovalRecord, CapabilityDescriptor } from "@orpc-agent/core";
import { ConfigurationError } from "@orpc-agent/core/adapter";

// The options both SDK paths share, free of SDK types so the v2 entry never names the v1 SDK.

/** The actor and application context every governed call of a request runs with (SI-3). */
export type MCPIdentity<TContext = unknown> = {
  actor: Actor;
  context: TContext;
  /**
   * The conversation this request belongs to, passed as `conversationId` to every `runtime.invoke` it makes, so a
   * standing grant scoped to that conversation can cover it (SI-13). MCP has no conversation of its own: only the
   * application knows one. Derive it from what you verified (the token, your session store); a value the client
   * sent (a header, `_meta`, tool arguments) lets the client pick which grants cover it, so trust one only if
   * your application means to. A non-empty string when given; anything else refuses the request.
   */
  conversationId?: string;
};

/** How the governed tools are named, listed, annotated and approved: identical on the v2 and v1 paths. */
export type MCPGovernanceOptions = {
  /**
   * The `serverInfo` the server announces.
   * @default { name: "orpc-agent", version: <this package's version> }
   */
  serverInfo?: { name: string; version: string };
  /** A listing shaper for UX, applied after governance; never authority (SI-2). */
  filter?: (descriptor: CapabilityDescriptor) => boolean;
  /**
   * Tool names by capability id, unless `meta.adapters.mcp.toolName` is set.
   * @default defaultToolName (every `.` becomes `_`)
   */
  toolNaming?: (capabilityId: string) => string;
  /**
   * `"derive"` derives hints from `sideEffect`/`idempotent` under the meta overrides; `"meta-only"` sends the meta ones.
   * @default "derive"
   */
  annotations?: "derive" | "meta-only";
  approvals?: {
    /** A link into the app's authenticated approver UI for this request; a locator, never an authority. */
    url?: (record: ApprovalRecord) => string | undefined;
    /**
     * The synthetic tool that runs an operation a human already approved; `true` lists it as `approvals_resume`.
     * @default false
     */
    resumeTool?: boolean | { name?: string; description?: string };
  };
};

/**
 * TypeErrors for governance options neither entry can work with, and a missing `createContext`
 * (docs/architecture/spec/adapters.md#adapters-3-1). `adapter` is the function the application called, named in every message.
 */
export function assertGovernanceOptions(options: unknown, adapter: string): asserts options is MCPGovernanceOptions {
  const fail = (message: string): never => {
    throw new ConfigurationError(`${adapter}: ${message}`);
  };
  if (typeof options !== "object" || options === null) {
    throw new ConfigurationError(`${adapter}(runtime, options): options must be an object with a createContext function.`);
  }
  const o = options as Record<string, unknown>;
  if (typeof o.createContext !== "function") {
    fail("options.createContext is required. Return { actor, context } from the verified authInfo (or a fixed least-privilege actor under stdio).");
  }
  for (const key of ["filter", "toolNaming"] as const) {
    if (o[key] !== undefined && typeof o[key] !== "function") fail(`options.${key} must be a function.`);
  }
  if (o.annotations !== undefined && o.annotations !== "derive" && o.annotations !== "meta-only") {
    fail('options.annotations must be "derive" or "meta-only".');
  }
  assertServerInfo(o.serverInfo, fail);
  assertApprovals(o.approvals, fail);
}

function assertServerInfo(serverInfo: unknown, fail: (message: string) => never): void {
  if (serverInfo === undefined) return;
  const info = serverInfo as { name?: unknown; version?: unknown } | null;
  if (typeof info !== "object" || info === null || typeof info.name !== "string" || typeof info.version !== "string") {
    fail("options.serverInfo must be { name: string; version: string }.");
  }
}

function assertApprovals(approvals: unknown, fail: (message: string) => never): void {
  if (approvals === undefined) return;
  if (typeof approvals !== "object" || approvals === null) fail("options.approvals must be an object.");
  const { url, resumeTool } = approvals as { url?: unknown; resumeTool?: unknown };
  if (url !== undefined && typeof url !== "function") fail("options.approvals.url must be a function.");
  if (resumeTool === undefined || typeof resumeTool === "boolean") return;
  const tool = resumeTool as { name?: unknown; description?: unknown } | null;
  if (typeof tool !== "object" || tool === null) fail("options.approvals.resumeTool must be a boolean or { name?, description? }.");
  for (const key of ["name", "description"] as const) {
    const value = tool[key];
    if (value !== undefined && (typeof value !== "string" || value === "")) fail(`options.approvals.resumeTool.${key} must be a non-empty string.`);
  }
}
