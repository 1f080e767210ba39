import type { Actor, ExposureSurface, RiskLevel, SideEffect } from "../vocabulary/types.js";
import type { ApprovalSealOptions } from "./seal/keys.js";
import type { DecisionLinkOptions } from "./links/keys.js";
import type { DecideWithLinkOptions, DecisionLink, DecisionLinkContents, DecisionLinkRequest } from "./links/types.js";
import type { GrantListFilter, GrantRecord, GrantRequest, GrantRevocation, GrantTerms, GrantUse } from "./grants/types.js";

export type ApprovalStatus = "pending" | "approved" | "rejected" | "expired" | "cancelled" | "consumed";

export type ApprovalRequest = {
  /** Runtime-minted `apr_<uuid>`. */
  id: string;
  capabilityId: string;
  surface: ExposureSurface;
  /** The requester. */
  actor: Actor;
  /** The validated input the approval binds. */
  input: unknown;
  /** Lowercase hex SHA-256 of the canonical JSON of `input`. */
  inputHash: string;
  /**
   * A JSON copy of the input as the caller submitted it, before the schema's transforms and defaults. Resume
   * validates it again and requires the result to hash to `inputHash`, so a transform applies once. Absent when
   * the submitted value has no JSON form; resume then requires the schema to give `input` back unchanged.
   */
  submittedInput?: unknown;
  reasons: string[];
  types: string[];
  risk: RiskLevel;
  sideEffect: SideEffect;
  requestedAt: Date;
  expiresAt: Date;
  /**
   * Distinct approvers needed, none of them the requester (four eyes: 2). Present only when above 1; absent means
   * one approver, as for records stored before quorums existed. docs/guides/quorum-approvals.md
   */
  quorum?: number;
  /**
   * The runtime's keyed seal over this request (`approvals.seal`): opaque to coordinators, which store and return
   * it unchanged. docs/guides/tamper-evident-approvals.md
   */
  seal?: string;
  /** Digest of the capability's governance definition when requested; resume voids the approval if it widened. */
  definitionDigest?: string;
  /** Digest of the governance manifest when requested (what `orpc-agent snapshot` would record). */
  manifestDigest?: string;
  /** The capability's governance definition when requested, compared at resume (absent on older records). */
  definition?: unknown;
  /**
   * The conversation the call came from (`invoke`'s `conversationId`), so a grant decided with this request can be
   * scoped to it (SI-13). Absent when the call carried none.
   */
  conversationId?: string;
};

/** One approval counted toward a request's quorum. `seal` as on the decision that cast it. */
export type ApprovalVote = { approver: Actor; at: Date; comment?: string; seal?: string };

/**
 * `seal` is written by the runtime when `approvals.seal` is set (a caller's own value is replaced); coordinators
 * store it with the decision and with the quorum vote, and return it unchanged.
 *
 * `input` and `inputHash`: approve with changes. Through `runtime.approvals.decide` an approver sends the edited
 * `input` only; the runtime validates it against the capability's schema, re-runs its policies on it, and hands the
 * coordinator the validated value with its hash (a caller's own `inputHash` is never kept). Coordinators store both
 * with the decision, beside the request's own `input` and `inputHash`, and return them unchanged; resume then executes
 * the edited value, which must hash to `inputHash` (SI-5, SI-6). Never on a rejection, with a grant, or on a quorum
 * request. docs/guides/approvals.md#approve-with-changes
 */
export type ApprovalDecision = {
  status: "approved" | "rejected";
  approver: Actor;
  comment?: string;
  seal?: string;
  /** The edited input the approval binds instead of the request's (approve with changes). */
  input?: unknown;
  /** Lowercase hex SHA-256 of the canonical JSON of the edited `input`, computed by the runtime. */
  inputHash?: string;
};

export type ApprovalRecord = ApprovalRequest & {
  status: ApprovalStatus;
  /**
   * The final decision: the rejection, or the approval that completed the quorum. An approval short of the quorum
   * leaves the record `pending` with no `decision`.
   */
  decision?: ApprovalDecision & { decidedAt: Date };
  /** Quorum records only (`quorum` present): every approval counted so far, one per distinct approver id, in order. */
  approvals?: ApprovalVote[];
  consumedByExecutionId?: string;
};

export type ApprovalListFilter = { status?: ApprovalStatus; capabilityId?: string; actorId?: string };

/**
 * Storage and state machine for approvals. Every implementation passes the coordinator contract suite. docs/architecture/spec/core.md#core-10
 *
 * `decide` is compare-and-set per decision. On a quorum record an approval by an approver id not yet counted is
 * appended to `approvals`; the record turns `approved` (with `decision`) when the count reaches `quorum`, and
 * stays `pending` before. The same approver id approving again throws `APPROVAL_ALREADY_DECIDED`, so concurrent
 * decides never count one approver twice. A rejection rejects the whole request. docs/guides/quorum-approvals.md
 *
 * Every refusal of `decide` is a typed `CapabilityError`, the same from every store: build them with
 * `assertApprovalDecision`, `approvalNotFoundError`, `approvalNotPendingError` and `approvalAlreadyApprovedError`
 * (docs/reference/errors.md).
 */
export interface ApprovalCoordinator {
  create(request: ApprovalRequest): Promise<ApprovalRecord>;
  get(id: string): Promise<ApprovalRecord | null>;
  decide(id: string, decision: ApprovalDecision): Promise<ApprovalRecord>;
  markConsumed(id: string, executionId: string): Promise<ApprovalRecord>;
  list?(filter?: ApprovalListFilter): Promise<ApprovalRecord[]>;
  /**
   * Claims the notice `notice` (e.g. `"expiring"`, `"escalate:1800000"`) of approval `id` at `at`: `true` for the
   * first claimer only, across every instance sharing the store, and only while the record is pending and not expired
   * at `at` (strict, as `decide`); `false` otherwise, also for an unknown id. Changes nothing else about the record.
   * Optional; `runtime.approvals.sweep()` needs it (and `list`). docs/guides/notifying-approvers.md#escalation-and-expiry-warnings
   */
  claimNotice?(id: string, notice: string, at: Date): Promise<boolean>;
  // Standing grants (SI-13): optional, so coordinators written before them keep compiling; the runtime refuses grants
  // (`GRANT_NOT_ALLOWED`) unless all five are present. Semantics: `GrantStore` (approvals/grants/types.ts), checked by
  // test-fixtures/grant-store-contract.ts.
  /** Stores a grant's terms, `usesLeft = uses`; a duplicate id throws. */
  createGrant?(terms: GrantTerms): Promise<GrantRecord>;
  getGrant?(id: string): Promise<GrantRecord | null>;
  /** Oldest `issuedAt` first, then by id. */
  listGrants?(filter?: GrantListFilter): Promise<GrantRecord[]>;
  /** Atomic check-and-consume of one use (and the budget amount); `null` when nothing was consumed. */
  useGrant?(id: string, use: GrantUse): Promise<GrantRecord | null>;
  /** Marks the grant revoked (the first revocation is kept); `null` for an unknown id. */
  revokeGrant?(id: string, revocation: GrantRevocation): Promise<GrantRecord | null>;
}

type GrantOperation = "createGrant" | "getGrant" | "listGrants" | "useGrant" | "revokeGrant";

/** A decision through `runtime.approvals.decide`: an approval may carry a standing grant request (SI-13). */
export type RuntimeApprovalDecision = ApprovalDecision & { grant?: GrantRequest };

/**
 * `runtime.approvals`: the coordinator, with `decide` guarded and audited, plus the operator path for an approval
 * consumed by an execution that never started (docs/guides/approvals.md, "Consumed, never started").
 */
export type RuntimeApprovals = Omit<ApprovalCoordinator, "decide" | "claimNotice" | GrantOperation> & {
  /**
   * The coordinator's `decide`, guarded (SI-4) and audited. With `grant` on an approval, also issues a standing grant
   * for the request's principal, capability, surface and (scope `"conversation"`) conversation, under the same checks;
   * a refused grant leaves the record undecided. The record returned carries the grant issued, as `grant`
   * (docs/guides/standing-grants.md).
   */
  decide(id: string, decision: RuntimeApprovalDecision): Promise<ApprovalRecord & { grant?: GrantRecord }>;
  /**
   * Creates a fresh pending approval (`<id>.r`) for the same capability, requester, surface and input as the
   * consumed approval `id`, audited as `capability.approval_requested` with `data.reRequest`. An approver must
   * decide it again; the consumed record is never released.
   */
  reRequest(id: string, options: { operator: Actor; reason: string }): Promise<ApprovalRecord>;
  /**
   * A signed, expiring token that decides approval `id` as `approver` with `action` when handed to
   * {@link RuntimeApprovals.decideWithLink} (the app builds the URL around it). Refused exactly where `decide` by that
   * approver would be (unknown id, not pending or expired, self-approval, the acting agent, an approver a quorum already
   * counts), and with `APPROVAL_LINKS_DISABLED` without `approvals.links`. The token expires after `ttlMs`, never after
   * the approval. docs/guides/decision-links.md
   */
  decisionLink(id: string, request: DecisionLinkRequest): Promise<DecisionLink>;
  /**
   * Decides as the link's approver, exactly as `decide` would (every SI-4 rule, the seal, the audit, which records
   * `data.via: "link"` and a `linkId`). A token this runtime's keys did not sign, or bound to an input the record no
   * longer has, is `APPROVAL_LINK_INVALID`; one past its expiry `APPROVAL_LINK_EXPIRED`; a used one is refused by the
   * coordinator's compare-and-set (`APPROVAL_ALREADY_DECIDED`, or `APPROVAL_REJECTED` once rejected), on any instance.
   */
  decideWithLink(token: string, options?: DecideWithLinkOptions): Promise<ApprovalRecord & { grant?: GrantRecord }>;
  /**
   * What a link says (approval id, approver, action, expiry), checked as `decideWithLink` checks it
   * (`APPROVAL_LINK_INVALID`, `APPROVAL_LINK_EXPIRED`, `APPROVAL_LINKS_DISABLED`) but deciding nothing: a link page
   * shows the approval from the token itself, never from URL parameters a sender could change. Whether the approver may
   * still decide is `decideWithLink`'s to say.
   */
  readDecisionLink(token: string): Promise<DecisionLinkContents>;
  /**
   * Sends the notices due now for every pending approval: `approval.escalated` for each step of the capability's
   * `approval.escalate` whose moment passed, `approval.expiring` once `approvals.expiryWarningMs` before expiry. Each
   * notice is claimed in the coordinator first (`claimNotice`), so of every instance sweeping one store exactly one
   * sends it, at most once: a notifier that fails does not get it again. Never changes a status or a decision; an
   * expired approval gets nothing. Schedule it (every minute, say) on any instance. Resolves to what this call sent;
   * without `approvals.notify` it claims and sends nothing. A coordinator without `list` or `claimNotice` is refused
   * with `APPROVAL_SWEEP_UNSUPPORTED`; a store failure rejects with `INTERNAL_ERROR` (notices claimed before it stay
   * sent). docs/guides/notifying-approvers.md#escalation-and-expiry-warnings
   */
  sweep(options?: ApprovalSweepOptions): Promise<ApprovalSweepResult>;
};

/** `runtime.approvals.sweep` options. */
export type ApprovalSweepOptions = {
  /** The instant the sweep runs at. @default the runtime's `now()` */
  now?: Date;
};

/** What one `runtime.approvals.sweep()` sent (claimed and queued), by this call only. */
export type ApprovalSweepResult = { escalated: number; expiring: number };

export type ApprovalsConfig = {
  coordinator?: ApprovalCoordinator;
  /** Inline mode: a decision is final in the same call; `undefined` defers to the coordinator. */
  handler?: (req: ApprovalRequest) => Promise<ApprovalDecision | undefined>;
  /**
   * Refuse a decision by the approval's own requester (SI-4).
   * @default true
   */
  rejectSelfApproval?: boolean;
  /**
   * Approval types the requester may confirm themselves (e.g. a chat user confirming their own send), while
   * self-approval stays refused for every other type. A request is self-confirmable only when all its types are
   * listed.
   * @default [] (none)
   */
  requesterConfirmable?: readonly string[];
  /**
   * Keys that seal every approval request and decision, so an edited or minted row in the coordinator's store is
   * refused at resume like an unknown approval (SI-8). `false` declares the store trusted and silences the startup
   * warning given for a coordinator without a seal. docs/guides/tamper-evident-approvals.md
   */
  seal?: ApprovalSealOptions | false;
  /**
   * Keys that sign decision links (`runtime.approvals.decisionLink`): the first signs, every one verifies. Their own
   * keys: a secret shared with `seal` is refused at startup. Without it, links are refused with
   * `APPROVAL_LINKS_DISABLED`. docs/guides/decision-links.md
   */
  links?: DecisionLinkOptions;
};
