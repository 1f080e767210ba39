import type { Actor } from "../../vocabulary/types.js";

/** What a decision link decides: `"approve"` as `decide` with `status: "approved"`, `"reject"` as `"rejected"`. */
export type DecisionLinkAction = "approve" | "reject";

/** `runtime.approvals.decisionLink`'s request: who the link decides as, what it decides, and for how long it works. */
export type DecisionLinkRequest = {
  /** The approver the link decides as; kept as its JSON copy, as `decide` keeps an approver. */
  approver: Actor;
  action: DecisionLinkAction;
  /** Positive; the link never outlives the approval's `expiresAt`. */
  ttlMs: number;
};

/** A signed decision link: the app puts `token` in the URL it sends the approver. */
export type DecisionLink = {
  /** Compact and URL-safe (`A-Z a-z 0-9 _ - .`); a bearer secret: whoever holds it decides as the named approver. */
  token: string;
  /** When the token stops working: `now + ttlMs`, or the approval's `expiresAt` when that comes first. */
  expiresAt: Date;
};

/** `runtime.approvals.decideWithLink`'s options: the approver's comment, kept with the decision as `decide` keeps it. */
export type DecideWithLinkOptions = { comment?: string };

/**
 * What a signed, unexpired decision link says, as `runtime.approvals.readDecisionLink` reads it: for a page that shows
 * the approval and its one button before anyone decides. Reading decides nothing and spends nothing.
 */
export type DecisionLinkContents = {
  approvalId: string;
  /** The approver the link decides as (its JSON copy). */
  approver: Actor;
  action: DecisionLinkAction;
  expiresAt: Date;
};
