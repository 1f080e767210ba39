import type { AuditChainRecord, AuditTrailReport } from "@orpc-agent/core";
import { parseReceiptId } from "@orpc-agent/core";
import type { CliIo } from "../commands/io.js";
import type { AuditArgs } from "./parse-audit-args.js";
import type { Trail } from "./read-trail.js";

export type ReceiptLocation = {
  receiptId: string;
  /** verified: its chain verifies and a signed checkpoint covers it; unsigned: linked, not yet signed. */
  status: "verified" | "unsigned" | "broken" | "not-found";
  executionId?: string;
  /** The execution's events in its chain, in seq order. */
  events: { seq: number; type: string; timestamp: string }[];
};

export function locateReceipt(receiptId: string, trail: Trail, report: AuditTrailReport): ReceiptLocation {
  const place = parseReceiptId(receiptId);
  const terminal = trail.events.find((event) => event.receiptId === receiptId && event.chainId === place?.chainId && event.seq === place?.seq);
  if (place === undefined || terminal === undefined) return { receiptId, status: "not-found", events: [] };
  const events = trail.events
    .filter((event: AuditChainRecord) => event.chainId === place.chainId && event.executionId !== undefined && event.executionId === terminal.executionId)
    .sort((a, b) => a.seq - b.seq)
    .map((event) => ({ seq: event.seq, type: event.type, timestamp: event.timestamp }));
  const located = { receiptId, ...(terminal.executionId === undefined ? {} : { executionId: terminal.executionId }), events };
  if (report.findings.some((finding) => finding.chainId === place.chainId)) return { ...located, status: "broken" };
  const signedThrough = Math.max(-1, ...trail.checkpoints.filter((cp) => cp.chainId === place.chainId).map((cp) => cp.seq));
  return { ...located, status: signedThrough >= place.seq ? "verified" : "unsigned" };
}

export function renderReport(io: CliIo, args: AuditArgs, report: AuditTrailReport, trail: Trail, receipt: ReceiptLocation | undefined): void {
  if (args.format === "json") {
    io.stdout.write(`${JSON.stringify({ ...report, unchained: trail.unchained, ...(receipt ? { receipt } : {}) }, null, 2)}\n`);
    return;
  }
  const out: string[] = [];
  const signatures = report.signaturesChecked ? "signatures checked" : "signatures NOT checked (--skip-signatures)";
  out.push(`audit trail: ${report.events} events in ${report.chains} chain(s), ${report.checkpoints} checkpoint(s), ${signatures}`);
  if (report.findings.length === 0) {
    out.push(report.unknownKeys.length === 0 ? "intact: every event is linked to its predecessor and every checkpoint verifies" : "not verified: some checkpoints were signed with keys not given");
  } else {
    out.push(`TAMPERED: ${report.findings.length} chain(s) fail verification`);
    for (const finding of report.findings) out.push(`  ${finding.kind}: ${finding.message} [chain ${finding.chainId}]`);
  }
  if (report.unsignedTail > 0) out.push(`note: ${report.unsignedTail} event(s) after the last signed checkpoint are linked but not yet signed`);
  if (report.declaredLost > 0) out.push(`note: ${report.declaredLost} event(s) were declared lost by their writer (a failed insert), in a signed checkpoint`);
  if (trail.unchained > 0) out.push(`note: ${trail.unchained} row(s) without a chain were not verified`);
  if (receipt !== undefined) {
    const label = { verified: "verified", unsigned: "linked, not yet signed", broken: "NOT verified: its chain fails", "not-found": "NOT FOUND" }[receipt.status];
    out.push(`receipt ${receipt.receiptId}: ${label}`);
    for (const event of receipt.events) out.push(`  seq ${event.seq}  ${event.timestamp}  ${event.type}`);
  }
  io.stdout.write(`${out.join("\n")}\n`);
}
