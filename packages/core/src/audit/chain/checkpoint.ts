import { canonicalJson } from "../../approvals/canonical-json.js";

/**
 * A writer's signed statement "chain `chainId` holds exactly these `seq` events, the last hashing to `hash`".
 * `seq: 0` with the genesis hash opens a chain, so a chain without any signed checkpoint was not written by a keyed
 * writer. `lost` lists events the writer knows it failed to store (a rejected insert), hashes included, so the
 * chain stays verifiable across them and a missing row is not mistaken for a deletion.
 */
export type AuditCheckpoint = {
  chainId: string;
  seq: number;
  hash: string;
  /** ISO-8601 instant on the writer's clock. */
  at: string;
  keyId: string;
  lost: { seq: number; hash: string }[];
  /** Base64 Ed25519 signature over `auditCheckpointPayload(checkpoint)`. */
  signature: string;
};

const DOMAIN = "orpc-agent/audit-checkpoint/v1\n";

/** The exact text a checkpoint's signature covers: a domain tag and the canonical JSON of every field but `signature`. */
export function auditCheckpointPayload(checkpoint: Omit<AuditCheckpoint, "signature"> & { signature?: string }): string {
  return (
    DOMAIN +
    canonicalJson({
      chainId: checkpoint.chainId,
      seq: checkpoint.seq,
      hash: checkpoint.hash,
      at: checkpoint.at,
      keyId: checkpoint.keyId,
      lost: checkpoint.lost.map((entry) => ({ seq: entry.seq, hash: entry.hash })),
    })
  );
}
