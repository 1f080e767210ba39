import type { Actor } from "../../vocabulary/types.js";
import { quorumOf } from "../quorum.js";
import type { ApprovalDecision, ApprovalRecord, ApprovalRequest } from "../types.js";
import { decisionSealText, grantSealText, requestSealText } from "./content.js";
import type { GrantTerms } from "../grants/types.js";
import type { CheckedSealKey } from "./keys.js";
import { macKeys } from "./mac.js";

/**
 * Seals approval requests and decisions, and verifies a stored record against them (issue 29, ADR-027).
 * Seal formats: request `v1.<keyId>.<mac>`, decision `v1.<keyId>.<atMs>.<mac>` (MAC: base64url HMAC-SHA256).
 */
export type ApprovalSealer = {
  sealRequest(request: ApprovalRequest): Promise<string>;
  sealDecision(approvalId: string, requestSeal: string, decision: Pick<ApprovalDecision, "status" | "approver" | "comment" | "inputHash">, at: Date): Promise<string>;
  /**
   * Whether the record is what the runtime sealed: the request always; for an approved or consumed record also
   * the approving decision and, for a quorum, every vote (each sealed; enough distinct ones besides the requester).
   */
  verifyRecord(record: ApprovalRecord): Promise<boolean>;
  /** The seal of a standing grant's terms (SI-13), `v1.<keyId>.<mac>`. */
  sealGrant(grant: GrantTerms): Promise<string>;
  /** Whether the grant's terms are what the runtime sealed; a grant without a seal never verifies. */
  verifyGrant(grant: GrantTerms): Promise<boolean>;
};

export function createApprovalSealer(keys: readonly CheckedSealKey[]): ApprovalSealer {
  const mac = macKeys(keys);

  const verifyRequest = async (record: ApprovalRecord): Promise<boolean> => {
    const parts = typeof record.seal === "string" ? record.seal.split(".") : [];
    if (parts.length !== 3 || parts[0] !== "v1") return false;
    return mac.verify(parts[1]!, requestSealText(record), parts[2]!);
  };

  const verifyDecision = async (record: ApprovalRecord, seal: unknown, status: "approved" | "rejected", approver: Actor | undefined, comment: unknown, inputHash?: unknown): Promise<boolean> => {
    const parts = typeof seal === "string" ? seal.split(".") : [];
    if (parts.length !== 4 || parts[0] !== "v1" || !/^\d{1,16}$/.test(parts[2]!)) return false;
    if (typeof approver?.id !== "string" || typeof approver.kind !== "string") return false;
    // A present but non-string inputHash is sealed as absent would be: never, so such a decision cannot verify.
    if (inputHash !== undefined && typeof inputHash !== "string") return false;
    const text = decisionSealText({ approvalId: record.id, requestSeal: record.seal!, status, approver, comment, inputHash, atMs: Number(parts[2]) });
    return mac.verify(parts[1]!, text, parts[3]!);
  };

  return {
    async sealRequest(request) {
      return `v1.${mac.current.id}.${await mac.sign(requestSealText(request))}`;
    },
    async sealDecision(approvalId, requestSeal, decision, at) {
      const atMs = at.getTime();
      const text = decisionSealText({ approvalId, requestSeal, status: decision.status, approver: decision.approver, comment: decision.comment, inputHash: decision.inputHash, atMs });
      return `v1.${mac.current.id}.${atMs}.${await mac.sign(text)}`;
    },
    async sealGrant(grant) {
      return `v1.${mac.current.id}.${await mac.sign(grantSealText(grant))}`;
    },
    async verifyGrant(grant) {
      const parts = typeof grant?.seal === "string" ? grant.seal.split(".") : [];
      if (parts.length !== 3 || parts[0] !== "v1") return false;
      return mac.verify(parts[1]!, grantSealText(grant), parts[2]!);
    },
    async verifyRecord(record) {
      if (!(await verifyRequest(record))) return false;
      if (record.status !== "approved" && record.status !== "consumed") return true;
      const decision = record.decision;
      if (decision?.status !== "approved" || !(await verifyDecision(record, decision.seal, "approved", decision.approver, decision.comment, decision.inputHash))) return false;
      const quorum = quorumOf(record);
      if (quorum === 1) return true;
      // Every vote must be one the runtime sealed (an added one would name an approver who never decided);
      // count each approver id once, never the requester's.
      const counted = new Set<string>();
      for (const vote of record.approvals ?? []) {
        if (!(await verifyDecision(record, vote?.seal, "approved", vote?.approver, vote?.comment))) return false;
        if (vote.approver.id !== record.actor.id) counted.add(vote.approver.id);
      }
      return counted.size >= quorum;
    },
  };
}
