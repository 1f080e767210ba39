import type { Actor, ApprovalRecord, CapabilityDescriptor } from "@orpc-agent/core";

// The options both SDK paths share, free of SDK types so the v2 entry never names the v1 SDK.

/** The actor and application context every governed call of a request runs with (SI-3). */
export type MCPIdentity<TContext = unknown> = { actor: Actor; context: TContext };

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
