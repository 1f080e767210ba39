/**
 * What the formatters read of an approval view: a structural subset of core's `ApprovalView` (what
 * `describeApproval(record, capability, { now })` returns), so any view core builds fits, and so do hand-made ones in
 * tests. Only the redacted input ever reaches it.
 */
export type NotifyApprovalView = {
  readonly id: string;
  readonly capabilityId: string;
  /** The capability's title, else its id. */
  readonly title: string;
  readonly description: string;
  readonly reasons: readonly string[];
  readonly risk: string;
  readonly sideEffect: string;
  readonly destructive: boolean;
  readonly highRiskWrite: boolean;
  readonly requester: NotifyViewActor;
  readonly actingAgent?: { readonly id: string; readonly displayName?: string };
  readonly expiresAt: Date;
  /** Milliseconds from the view's `now` to `expiresAt`; 0 once expired. */
  readonly expiresInMs: number;
  /** `pending`, `approved`, `rejected`, `expired`, … */
  readonly status: string;
  readonly decision?: { readonly status: "approved" | "rejected"; readonly approver: NotifyViewActor; readonly comment?: string };
  readonly progress: { readonly approvals: number; readonly quorum: number; readonly label: string };
  readonly voters: readonly { readonly approver: NotifyViewActor; readonly at: Date; readonly comment?: string }[];
  readonly input:
    | { readonly shown: true; readonly fields: readonly { readonly key: string; readonly label: string; readonly value: unknown }[] }
    | { readonly shown: false; readonly reason: string };
};

export type NotifyViewActor = { readonly id: string; readonly displayName?: string };

/**
 * Decision links the app minted (`runtime.approvals.decisionLink` gives a token; the app builds the URL). A channel
 * shows a button only for a link it was given, and only while the approval is pending.
 */
export type DecisionLinks = { approve?: string; reject?: string };

/** The notification kinds a formatter may headline; without one, the view's status decides. */
export type ApprovalNotificationKind = "approval.requested" | "approval.decided" | "approval.expiring" | "approval.escalated";
