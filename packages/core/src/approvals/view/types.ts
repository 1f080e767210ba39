import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { JsonSchemaObject } from "../../schema/types.js";
import type { Actor, ExposureSurface, RiskLevel, SideEffect } from "../../vocabulary/types.js";
import type { ApprovalProgress } from "../quorum.js";
import type { ApprovalStatus } from "../types.js";

/**
 * What `describeApproval` reads of a capability: a registry entry (`runtime.registry.get(id)`, an `AgentCapability`)
 * or a descriptor from `runtime.describe` (a `CapabilityDescriptor`); both fit. Only a registry entry carries the
 * `redact.approvalInput` hook, so only with one is the input shown (a descriptor shows labels, never the input).
 */
export type ApprovalViewCapability = {
  id: string;
  /** A descriptor's description. */
  description?: string;
  /** A registry entry's Standard Schema, or a descriptor's JSON Schema: field labels come from its properties. */
  inputSchema?: StandardSchemaV1 | JsonSchemaObject | undefined;
  /** A registry entry's metadata: description, the approval-input hook, the MCP title. */
  meta?: {
    description?: string;
    redact?: { approvalInput?: (input: unknown) => unknown };
    adapters?: { mcp?: { annotations?: { title?: string } } };
  };
};

/** A person or service as an approval view shows it: never the app's `attributes`. */
export type ApprovalViewActor = { readonly id: string; readonly kind: Actor["kind"]; readonly displayName?: string };

/** The agent that carried the request for its requester (`actor.via`). */
export type ApprovalViewAgent = { readonly id: string; readonly displayName?: string };

/** One top-level field of the redacted input, labelled from the capability's input JSON Schema. */
export type ApprovalViewField = {
  readonly key: string;
  /** The property's `title`, else the key. */
  readonly label: string;
  /** The property's `description`, when the schema has one. */
  readonly description?: string;
  readonly value: unknown;
};

/**
 * The input as approvers may see it: only ever what the capability's `redact.approvalInput` returns (the stored
 * input itself when it declares no hook), as a frozen JSON copy. Withheld when that cannot be known or computed:
 * `no-capability` (no registry entry given), `descriptor-only` (a descriptor carries no hook), `redaction-failed`
 * (the hook threw), `unrepresentable` (what it returned has no JSON form).
 */
export type ApprovalViewInput =
  | { readonly shown: true; readonly value: unknown; readonly fields: readonly ApprovalViewField[] }
  | { readonly shown: false; readonly reason: "no-capability" | "descriptor-only" | "redaction-failed" | "unrepresentable" };

/** One approval counted toward the request: who, when, and what they wrote. */
export type ApprovalViewVote = { readonly approver: ApprovalViewActor; readonly at: Date; readonly comment?: string };

/**
 * Who may decide, as data a channel can carry (read it with `mayDecide`): the SI-4 rules `runtime.approvals.decide`
 * applies, evaluated when the view was built. Who is authorised (a manager for refunds) stays the app's question.
 */
export type ApprovalDeciders = {
  /** Pending and not expired at the view's `now`: nobody may decide otherwise. */
  readonly open: boolean;
  readonly requester: { readonly id: string; readonly agentId?: string };
  /** The requester may decide it themselves (every demanded type requester-confirmable, no quorum). */
  readonly requesterMayDecide: boolean;
  /** The acting agent, and anyone acting through the agent or the requester, is refused (separation of duties). */
  readonly refusesRelays: boolean;
  /** Approver ids already counted: they may not approve again (they may still reject). */
  readonly counted: readonly string[];
};

/** The final decision: the rejection, or the approval that completed the quorum. */
export type ApprovalViewDecision = {
  readonly status: "approved" | "rejected";
  readonly approver: ApprovalViewActor;
  readonly comment?: string;
  readonly decidedAt: Date;
  /** Approved with changes: the edited input the approval binds, redacted exactly as `input` is. */
  readonly editedInput?: ApprovalViewInput;
};

/**
 * One approval as every channel renders it (the approvals page, a Slack message, an email, a chat card): deep-frozen
 * and JSON-serialisable, holding the redacted input only, never the stored one.
 */
export type ApprovalView = {
  readonly id: string;
  readonly capabilityId: string;
  /** The capability's MCP title when it declares one, else its id. */
  readonly title: string;
  readonly description: string;
  readonly surface: ExposureSurface;
  readonly reasons: readonly string[];
  /** The approval types demanded. */
  readonly types: readonly string[];
  readonly risk: RiskLevel;
  readonly sideEffect: SideEffect;
  /** `sideEffect: "destructive"`: a channel asks the approver to confirm. */
  readonly destructive: boolean;
  /** A write (write, destructive, external) of `high` or `critical` risk. */
  readonly highRiskWrite: boolean;
  readonly requester: ApprovalViewActor;
  /** The agent that acted for the requester, when the call carried one. */
  readonly actingAgent?: ApprovalViewAgent;
  readonly requestedAt: Date;
  readonly expiresAt: Date;
  /** Milliseconds from the view's `now` to `expiresAt`; 0 once expired. */
  readonly expiresInMs: number;
  /** The record's status, or `expired` for a pending record past its expiry at `now`. */
  readonly status: ApprovalStatus;
  readonly decision?: ApprovalViewDecision;
  readonly progress: ApprovalProgress;
  /** The approvals counted so far, in order. */
  readonly voters: readonly ApprovalViewVote[];
  readonly input: ApprovalViewInput;
  readonly decidableBy: ApprovalDeciders;
};

/** Options of `describeApproval`. */
export type DescribeApprovalOptions = {
  /** The moment `expiresInMs`, `status` and `decidableBy.open` are computed at. */
  now: Date;
  /**
   * The runtime's self-approval rule (`approvals.rejectSelfApproval`, `approvals.requesterConfirmable`), so
   * `decidableBy` matches what `decide` refuses.
   * @default { rejectSelfApproval: true, requesterConfirmable: [] }
   */
  selfApproval?: { rejectSelfApproval?: boolean; requesterConfirmable?: readonly string[] };
};
