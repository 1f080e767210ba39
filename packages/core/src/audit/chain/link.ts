import { canHashSync } from "../../approvals/hash.js";
import type { AgentAuditEvent, AgentAuditEventType, AuditChainLink } from "../types.js";
import { AUDIT_CHAIN_GENESIS, auditRecordHash, receiptIdOf } from "./record.js";

/** The events that end an execution: they carry its receipt (docs/architecture/spec/core.md#core-11 terminal events). */
const TERMINAL: ReadonlySet<AgentAuditEventType> = new Set<AgentAuditEventType>([
  "capability.completed",
  "capability.failed",
  "capability.cancelled",
  "capability.denied",
]);

export type AuditChainer = {
  readonly id: string;
  /** Assigns the next seq and links the event to its predecessor; synchronous, so seq order is emission order. */
  link(event: AgentAuditEvent): AgentAuditEvent;
};

/**
 * One hash chain per runtime. Per-process chains need no coordination between processes writing one table
 * (no lock, no shared counter), and each is verifiable on its own (ADR-025).
 */
export function createAuditChainer(): AuditChainer {
  if (!canHashSync) throw new TypeError("audit.chain needs synchronous SHA-256 (node:crypto), which this platform lacks.");
  const id = `chn_${crypto.randomUUID()}`;
  let seq = 0;
  let prev = AUDIT_CHAIN_GENESIS;
  return {
    id,
    link(event) {
      const next = seq + 1;
      const linked: Record<string, unknown> = { ...event };
      if (TERMINAL.has(event.type) && event.executionId !== undefined) linked.receiptId = receiptIdOf(id, next);
      const base = {
        chainId: id,
        seq: next,
        prev,
        type: event.type,
        timestamp: event.timestamp.toISOString(),
        surface: event.surface,
        actor: event.actor,
        executionId: event.executionId,
        capabilityId: event.capabilityId,
        correlationId: event.correlationId,
        inputHash: event.inputHash,
        receiptId: linked.receiptId as string | undefined,
        data: event.data,
      };
      // Throws only for data no event contract allows; then nothing advances and the caller reports it.
      const hash = auditRecordHash(base);
      const chain: AuditChainLink = Object.freeze({ id, seq: next, prev, hash });
      linked.chain = chain;
      seq = next;
      prev = hash;
      return Object.freeze(linked) as AgentAuditEvent;
    },
  };
}
