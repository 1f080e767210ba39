import { canonicalJson } from "../../approvals/canonical-json.js";
import { sha256Hex } from "../../approvals/hash.js";
import type { AgentAuditEvent, AuditActorRef, AuditChainLink } from "../types.js";

/** The predecessor hash of a chain's first event (seq 1). */
export const AUDIT_CHAIN_GENESIS = "0".repeat(64);

/**
 * One chained event in its stored, JSON form: what a sink persists, what an export line holds and what a
 * verifier recomputes the hash over. Payload-free by the event contract (SI-10): ids, hashes and `data` only.
 */
export type AuditChainRecord = {
  chainId: string;
  seq: number;
  prev: string;
  hash: string;
  type: string;
  /** ISO-8601, millisecond precision. */
  timestamp: string;
  surface: string;
  actor: AuditActorRef;
  executionId?: string;
  capabilityId?: string;
  correlationId?: string;
  inputHash?: string;
  receiptId?: string;
  /** `data` as JSON (a `Date` is its ISO string). */
  data: unknown;
};

const DOMAIN = "orpc-agent/audit-chain/v1\n";

/**
 * The hash an event's record is bound by: SHA-256 over a domain tag and the canonical JSON (sorted keys) of every
 * field except `hash`. Stable across storage: jsonb reorders keys, canonical JSON does not care.
 */
export function auditRecordHash(record: Omit<AuditChainRecord, "hash"> & { hash?: string }): string {
  return sha256Hex(DOMAIN + canonicalRecordText(record));
}

const str = (value: unknown): string => JSON.stringify(value) ?? "null";

/**
 * The canonical JSON of a record's hashed fields, assembled by hand: the fixed keys in sorted order (what
 * canonicalJson would produce), canonicalJson only for `data`. Hashing sits on every chained emission, and this is
 * several times cheaper than walking the whole record generically.
 */
function canonicalRecordText(record: Omit<AuditChainRecord, "hash">): string {
  // Keys in JS default sort order: actor, capabilityId, chainId, correlationId, data, executionId, inputHash, prev,
  // receiptId, seq, surface, timestamp, type. Absent optional fields are left out, as canonicalJson drops undefined.
  let out = `{"actor":{"id":${str(record.actor.id)},"kind":${str(record.actor.kind)}}`;
  if (record.capabilityId !== undefined) out += `,"capabilityId":${str(record.capabilityId)}`;
  out += `,"chainId":${str(record.chainId)}`;
  if (record.correlationId !== undefined) out += `,"correlationId":${str(record.correlationId)}`;
  const data = record.data === undefined ? undefined : canonicalJson(record.data);
  if (data !== undefined) out += `,"data":${data}`;
  if (record.executionId !== undefined) out += `,"executionId":${str(record.executionId)}`;
  if (record.inputHash !== undefined) out += `,"inputHash":${str(record.inputHash)}`;
  out += `,"prev":${str(record.prev)}`;
  if (record.receiptId !== undefined) out += `,"receiptId":${str(record.receiptId)}`;
  out += `,"seq":${canonicalJson(record.seq)},"surface":${str(record.surface)},"timestamp":${str(record.timestamp)},"type":${str(record.type)}}`;
  return out;
}

/** The record of a chained event (`event.chain` set), as a sink stores it or an export writes it. */
export function auditChainRecord(event: AgentAuditEvent & { chain: AuditChainLink }): AuditChainRecord {
  const record: AuditChainRecord = {
    chainId: event.chain.id,
    seq: event.chain.seq,
    prev: event.chain.prev,
    hash: event.chain.hash,
    type: event.type,
    timestamp: event.timestamp.toISOString(),
    surface: event.surface,
    actor: { id: event.actor.id, kind: event.actor.kind },
    // JSON form: a Date in data becomes its ISO string, as every store reads it back.
    data: JSON.parse(JSON.stringify(event.data)) as unknown,
  };
  if (event.executionId !== undefined) record.executionId = event.executionId;
  if (event.capabilityId !== undefined) record.capabilityId = event.capabilityId;
  if (event.correlationId !== undefined) record.correlationId = event.correlationId;
  if (event.inputHash !== undefined) record.inputHash = event.inputHash;
  if (event.receiptId !== undefined) record.receiptId = event.receiptId;
  return record;
}

/** `<chainId>.<seq>`: the receipt of a terminal event names its place in the chain. */
export function receiptIdOf(chainId: string, seq: number): string {
  return `${chainId}.${seq}`;
}

/** Splits a receipt id into chain id and seq; `undefined` for anything else. */
export function parseReceiptId(receiptId: string): { chainId: string; seq: number } | undefined {
  const match = /^(chn_[0-9a-f-]{36})\.([1-9][0-9]{0,15})$/.exec(receiptId);
  if (match === null) return undefined;
  return { chainId: match[1] as string, seq: Number(match[2]) };
}
