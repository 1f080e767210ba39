/** The self-approval rule of one runtime (SI-4, ADR-006 addendum). */
export type SelfApprovalRule = {
  readonly rejectSelfApproval: boolean;
  /** Approval types the requester may confirm themselves; empty unless the app declares some. */
  readonly requesterConfirmable: ReadonlySet<string>;
};

/**
 * Whether a decision by the requester on a request demanding `types` is refused. A requester may confirm their own
 * request only when every demanded type is requester-confirmable, so a browser answer can never cover a
 * manager-type demand merged into the same request. A quorum request (more than one approver) always refuses the
 * requester, whatever the rule: four eyes means two people other than the one asking.
 */
export function refusesSelfApproval(rule: SelfApprovalRule, types: readonly unknown[] | undefined, quorum = 1): boolean {
  if (quorum > 1) return true;
  if (!rule.rejectSelfApproval) return false;
  if (!Array.isArray(types) || types.length === 0) return true;
  return !types.every((type) => typeof type === "string" && rule.requesterConfirmable.has(type));
}

/** `approvals.requesterConfirmable` as a set; a TypeError names the expected shape. */
export function requesterConfirmableTypes(value: unknown): ReadonlySet<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || !value.every((type) => typeof type === "string" && type.length > 0)) {
    throw new TypeError('approvals.requesterConfirmable must be an array of approval type names, e.g. ["confirmation"].');
  }
  return new Set(value as string[]);
}
