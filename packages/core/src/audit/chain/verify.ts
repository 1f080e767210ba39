import { auditCheckpointPayload, type AuditCheckpoint } from "./checkpoint.js";
import { AUDIT_CHAIN_GENESIS, auditRecordHash, type AuditChainRecord } from "./record.js";

/** A record or checkpoint as read from a store: `ref` names it in messages (a row id, a line number). */
export type AuditTrailEntry<T> = T & { ref?: string };

export type AuditTrailFindingKind = "modified" | "deleted" | "reordered" | "inserted" | "rewritten" | "forged-checkpoint" | "unsigned-chain";

/** The first problem found in one chain. */
export type AuditTrailFinding = {
  kind: AuditTrailFindingKind;
  chainId: string;
  /** The position the problem was found at. */
  seq?: number;
  /** The offending record or checkpoint, when there is one. */
  ref?: string;
  message: string;
};

export type VerifyAuditTrailOptions = {
  events: Iterable<AuditTrailEntry<AuditChainRecord>>;
  checkpoints: Iterable<AuditTrailEntry<AuditCheckpoint>>;
  /**
   * Checks a checkpoint's signature over `payload` (see `auditCheckpointPayload`); `"unknown-key"` when no public key
   * is known for `keyId`. Given, every chain must carry a checkpoint that verifies (at least its opening one), or it
   * is reported as `unsigned-chain`. Omitted: signatures are not checked and only the hash links are verified.
   */
  verifySignature?: (payload: string, signature: string, keyId: string) => boolean | "unknown-key";
};

export type AuditTrailReport = {
  /** No finding and every checkpoint's key known. */
  intact: boolean;
  events: number;
  chains: number;
  checkpoints: number;
  signaturesChecked: boolean;
  /** Chained events after their chain's last signed checkpoint: linked, but not yet vouched for by a signature. */
  unsignedTail: number;
  /** Events the writers declared lost in signed checkpoints (a failed insert), not deletions. */
  declaredLost: number;
  /** Key ids of checkpoints no public key was given for: those checkpoints were not trusted. */
  unknownKeys: string[];
  findings: AuditTrailFinding[];
};

type Row = AuditTrailEntry<AuditChainRecord> & { computed: string };

/** How far a renumbered deletion is looked for: how many events may have been cut before a row. */
const MAX_RENUMBER_SHIFT = 1_000;

/**
 * Verifies chained audit records offline (ADR-025): every event's hash, every link to its predecessor, seq without gaps
 * or duplicates, and every checkpoint's signature and hash. Reports the first problem per chain, classified as a
 * modified, deleted, reordered or inserted event, a chain rewritten under a checkpoint, a forged checkpoint, or a
 * chain no signed checkpoint vouches for. Order of the input does not matter.
 */
export function verifyAuditTrail(options: VerifyAuditTrailOptions): AuditTrailReport {
  const rowsByChain = new Map<string, Row[]>();
  let events = 0;
  for (const record of options.events) {
    events++;
    const row: Row = { ...record, computed: safeHash(record) };
    const rows = rowsByChain.get(record.chainId);
    if (rows) rows.push(row);
    else rowsByChain.set(record.chainId, [row]);
  }

  const findings: AuditTrailFinding[] = [];
  const unknownKeys = new Set<string>();
  // Chains vouched for only by keys we lack are unverifiable, not unsigned.
  const unknownKeyChains = new Set<string>();
  const checkpointsByChain = new Map<string, AuditTrailEntry<AuditCheckpoint>[]>();
  let checkpoints = 0;
  for (const checkpoint of options.checkpoints) {
    checkpoints++;
    // A checkpoint is read from storage anyone with write access can edit: its shape is checked before anything
    // reads it, signatures or not, so a NULLed or mangled column is a finding, never a crash.
    if (!isWellFormedCheckpoint(checkpoint)) {
      const chainId = typeof checkpoint?.chainId === "string" ? checkpoint.chainId : String(checkpoint?.chainId);
      findings.push({
        kind: "forged-checkpoint",
        chainId,
        ...(typeof checkpoint?.seq === "number" ? { seq: checkpoint.seq } : {}),
        ...(typeof checkpoint?.ref === "string" ? { ref: checkpoint.ref } : {}),
        message: `checkpoint${typeof checkpoint?.ref === "string" ? ` (${checkpoint.ref})` : ""} at seq ${String(checkpoint?.seq)} is malformed: a field is missing or of the wrong type, so it was forged or altered`,
      });
      continue;
    }
    let trusted: boolean | "unknown-key" = true;
    if (options.verifySignature) {
      try {
        trusted = options.verifySignature(auditCheckpointPayload(checkpoint), checkpoint.signature, checkpoint.keyId);
      } catch {
        trusted = false;
      }
    }
    if (trusted === "unknown-key") {
      unknownKeys.add(checkpoint.keyId);
      unknownKeyChains.add(checkpoint.chainId);
      continue;
    }
    const genesisForged = checkpoint.seq === 0 && checkpoint.hash !== AUDIT_CHAIN_GENESIS;
    if (!trusted || genesisForged) {
      findings.push({
        kind: "forged-checkpoint",
        chainId: checkpoint.chainId,
        seq: checkpoint.seq,
        ...(checkpoint.ref === undefined ? {} : { ref: checkpoint.ref }),
        message: `checkpoint at seq ${checkpoint.seq} (key ${checkpoint.keyId}) does not verify: its signature or content was forged or altered`,
      });
      continue;
    }
    const list = checkpointsByChain.get(checkpoint.chainId);
    if (list) list.push(checkpoint);
    else checkpointsByChain.set(checkpoint.chainId, [checkpoint]);
  }

  // Checking signatures means every chain must carry one: with none at all, an emptied checkpoint table would
  // leave hashes anyone can recompute, and a rewritten trail would pass as intact.
  const mustBeSigned = options.verifySignature !== undefined || checkpointsByChain.size > 0 || unknownKeys.size > 0;
  let unsignedTail = 0;
  let declaredLost = 0;
  const chainIds = new Set([...rowsByChain.keys(), ...checkpointsByChain.keys()]);
  for (const chainId of chainIds) {
    if (findings.some((finding) => finding.chainId === chainId)) continue;
    const signed = mustBeSigned && !unknownKeyChains.has(chainId);
    const result = verifyChain(chainId, rowsByChain.get(chainId) ?? [], checkpointsByChain.get(chainId) ?? [], signed);
    if (result.finding) findings.push(result.finding);
    unsignedTail += result.unsignedTail;
    declaredLost += result.declaredLost;
  }

  return {
    intact: findings.length === 0 && unknownKeys.size === 0,
    events,
    chains: chainIds.size,
    checkpoints,
    signaturesChecked: options.verifySignature !== undefined,
    unsignedTail,
    declaredLost,
    unknownKeys: [...unknownKeys].sort(),
    findings,
  };
}

type ChainResult = { finding?: AuditTrailFinding; unsignedTail: number; declaredLost: number };

function verifyChain(chainId: string, rows: Row[], checkpoints: AuditTrailEntry<AuditCheckpoint>[], mustBeSigned: boolean): ChainResult {
  const bySeq = new Map<number, Row[]>();
  const byStoredHash = new Map<string, Row>();
  let maxSeq = 0;
  for (const row of rows) {
    if (!Number.isSafeInteger(row.seq) || row.seq < 1) {
      return { finding: at("inserted", chainId, row, `event ${describe(row)} has an impossible seq ${String(row.seq)}`), unsignedTail: 0, declaredLost: 0 };
    }
    const list = bySeq.get(row.seq);
    if (list) list.push(row);
    else bySeq.set(row.seq, [row]);
    byStoredHash.set(row.hash, row);
    if (row.seq > maxSeq) maxSeq = row.seq;
  }
  const checkpointAt = new Map<number, AuditTrailEntry<AuditCheckpoint>>();
  const lost = new Map<number, string>();
  let signedThrough = -1;
  for (const checkpoint of checkpoints) {
    checkpointAt.set(checkpoint.seq, checkpoint);
    for (const entry of checkpoint.lost) lost.set(entry.seq, entry.hash);
    if (checkpoint.seq > signedThrough) signedThrough = checkpoint.seq;
  }
  if (signedThrough > maxSeq) maxSeq = signedThrough;
  if (mustBeSigned && checkpoints.length === 0) {
    const first = bySeq.get(1)?.[0] ?? rows[0];
    return {
      finding: {
        kind: "unsigned-chain",
        chainId,
        ...(first?.ref === undefined ? {} : { ref: first.ref }),
        message: `chain ${chainId} (${rows.length} events) has no signed checkpoint, not even its opening one: it was not written by a keyed sink (inserted)`,
      },
      unsignedTail: 0,
      declaredLost: 0,
    };
  }

  const present = [...new Set([...bySeq.keys(), ...lost.keys()])].sort((a, b) => a - b);
  let prevHash = AUDIT_CHAIN_GENESIS;
  let declaredLost = 0;
  for (let seq = 1; seq <= maxSeq; seq++) {
    const candidates = bySeq.get(seq) ?? [];
    if (candidates.length === 0) {
      const lostHash = lost.get(seq);
      if (lostHash !== undefined) {
        declaredLost++;
        prevHash = lostHash;
        continue;
      }
      // The next seq present (a row or a declared loss), found by search: a row moved to seq 2^53 - 1 must not make
      // this walk step through the gap one number at a time.
      const missing = (nextPresent(present, seq) ?? maxSeq + 1) - seq;
      const range = missing === 1 ? `seq ${seq}` : `seq ${seq}–${seq + missing - 1}`;
      const reason = seq + missing > maxSeq ? " (the end of the chain was cut: a signed checkpoint covers it)" : "";
      return { finding: { kind: "deleted", chainId, seq, message: `event ${range} of chain ${chainId} was deleted${reason}` }, unsignedTail: 0, declaredLost };
    }
    const linked = candidates.filter((row) => row.prev === prevHash && row.computed === row.hash);
    if (linked.length === 0) return { finding: classify(chainId, seq, candidates[0] as Row, prevHash, byStoredHash), unsignedTail: 0, declaredLost };
    const successors = bySeq.get(seq + 1) ?? [];
    if (candidates.length > 1) {
      // Two events claim one place: the genuine one is what its successor or a checkpoint vouches for.
      const vouched = linked.find((row) => successors.some((next) => next.prev === row.hash) || checkpointAt.get(seq)?.hash === row.hash);
      const genuine = vouched ?? linked[0];
      const extra = candidates.find((row) => row !== genuine) as Row;
      return { finding: at("inserted", chainId, extra, `event ${describe(extra)} was inserted: another event already holds seq ${seq}`), unsignedTail: 0, declaredLost };
    }
    const row = linked[0] as Row;
    const next = successors.length === 1 ? successors[0] : undefined;
    if (next !== undefined && next.prev !== row.hash && !lost.has(seq + 1)) {
      if (next.prev === row.prev) {
        return { finding: at("inserted", chainId, row, `event ${describe(row)} was inserted: the next event links past it`), unsignedTail: 0, declaredLost };
      }
      if (!byStoredHash.has(next.prev) && next.computed === next.hash) {
        return { finding: at("modified", chainId, row, `event ${describe(row)} was modified (its stored hash was recomputed; the next event links to the original)`), unsignedTail: 0, declaredLost };
      }
    }
    const checkpoint = checkpointAt.get(seq);
    if (checkpoint !== undefined && checkpoint.hash !== row.hash) {
      return {
        finding: at("rewritten", chainId, row, `the chain up to ${describe(row)} was rewritten: it does not match the signed checkpoint at seq ${seq}`),
        unsignedTail: 0,
        declaredLost,
      };
    }
    prevHash = row.hash;
  }
  return { unsignedTail: Math.max(0, maxSeq - Math.max(signedThrough, 0)), declaredLost };
}

/** Why the row at `seq` does not link: it belongs elsewhere (reordered), earlier rows were cut (deleted), or it changed. */
function classify(chainId: string, seq: number, row: Row, prevHash: string, byStoredHash: Map<string, Row>): AuditTrailFinding {
  const predecessor = byStoredHash.get(row.prev);
  if (predecessor !== undefined && predecessor !== row && predecessor.seq + 1 !== seq) {
    return at("reordered", chainId, row, `event ${describe(row)} was reordered: it was written as seq ${predecessor.seq + 1}`);
  }
  if (row.prev !== prevHash && predecessor === undefined) {
    for (let shift = 1; shift <= MAX_RENUMBER_SHIFT; shift++) {
      if (safeHash({ ...row, seq: seq + shift }) === row.hash) {
        return at("deleted", chainId, row, `${shift} event(s) before ${describe(row)} were deleted and the later ones renumbered (it was written as seq ${seq + shift})`);
      }
    }
  }
  return at("modified", chainId, row, `event ${describe(row)} was modified: its content no longer matches its hash chain`);
}

/** The smallest value in `sorted` (ascending) greater than `after`, by binary search. */
function nextPresent(sorted: readonly number[], after: number): number | undefined {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) <= after) low = middle + 1;
    else high = middle;
  }
  return sorted[low];
}

const isSeq = (value: unknown, min: number): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= min;

/** Every field a checkpoint's signature covers, of the type the writer gives it; `lost` a list of `{ seq, hash }`. */
function isWellFormedCheckpoint(checkpoint: AuditTrailEntry<AuditCheckpoint> | null | undefined): boolean {
  if (typeof checkpoint !== "object" || checkpoint === null) return false;
  const { chainId, seq, hash, at, keyId, lost, signature } = checkpoint as Partial<Record<keyof AuditCheckpoint, unknown>>;
  if (typeof chainId !== "string" || !isSeq(seq, 0) || typeof hash !== "string" || typeof at !== "string") return false;
  if (typeof keyId !== "string" || typeof signature !== "string" || !Array.isArray(lost)) return false;
  return lost.every((entry: unknown) => typeof entry === "object" && entry !== null && isSeq((entry as { seq?: unknown }).seq, 1) && typeof (entry as { hash?: unknown }).hash === "string");
}

function at(kind: AuditTrailFindingKind, chainId: string, row: Row, message: string): AuditTrailFinding {
  return { kind, chainId, seq: row.seq, ...(row.ref === undefined ? {} : { ref: row.ref }), message };
}

function describe(row: Row): string {
  return `seq ${row.seq} (${row.type} at ${row.timestamp}${row.ref === undefined ? "" : `, ${row.ref}`})`;
}

/** A record whose fields cannot be hashed (say, a hand-edited non-JSON value) simply does not match. */
function safeHash(record: Omit<AuditChainRecord, "hash">): string {
  try {
    return auditRecordHash(record);
  } catch {
    return "";
  }
}
