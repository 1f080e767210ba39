// How the chat renders parts: text, governed tool parts by their state, and approval cards (`data-agent-approval`,
// keyed by approval id) that an outcome decided elsewhere replaces in place.
import { APPROVAL_PART_TYPE, type GovernedApprovalData } from "@orpc-agent/ai-sdk";
import type { BoardMessage } from "./api.js";

type Part = BoardMessage["parts"][number];
type ToolPart = { type: string; toolCallId: string; state: string; input?: unknown; output?: unknown; errorText?: string; approval?: { reason?: string; descriptor?: unknown } };

export function MessagePart({ part }: { part: Part }) {
  if (part.type === "text") return <p className="text">{part.text}</p>;
  if (part.type === APPROVAL_PART_TYPE) return <ApprovalCard data={part.data} />;
  if (part.type.startsWith("tool-")) return <ToolCall part={part as unknown as ToolPart} />;
  return null;
}

function ToolCall({ part }: { part: ToolPart }) {
  const name = part.type.slice("tool-".length);
  const envelope = part.output as { status?: string } | undefined;
  const label =
    part.state === "output-denied"
      ? "denied"
      : part.state === "output-error"
        ? "refused"
        : part.state === "output-available"
          ? envelope?.status === "approval-required"
            ? "approval requested"
            : "done"
          : "running";
  return (
    <div className={`tool ${part.state}`} data-tool={name} data-state={part.state} data-call={part.toolCallId}>
      <code>
        {name}({JSON.stringify(part.input ?? {})})
      </code>{" "}
      <strong>{label}</strong>
      {part.errorText && <p className="reason">{part.errorText}</p>}
      {part.state === "output-denied" && <p className="reason">{deniedReason(part)}</p>}
    </div>
  );
}

/**
 * A policy denial's public reason (SI-9). `ai` 6 streams no reason: the part carries the runtime's error envelope
 * as its approval descriptor until the next request completes it (`answerConfirmations`).
 */
function deniedReason(part: ToolPart): string {
  const descriptor = part.approval?.descriptor as { error?: { message?: string } } | undefined;
  return part.approval?.reason ?? descriptor?.error?.message ?? "Denied.";
}

const TITLES: Record<GovernedApprovalData["state"], string> = {
  "confirmation-requested": "Confirm in the chat",
  pending: "Waiting for approval",
  completed: "Approved and completed",
  rejected: "Rejected",
  expired: "Expired",
  failed: "Failed",
  refused: "Refused",
};

function ApprovalCard({ data }: { data: GovernedApprovalData }) {
  const output = data.result?.status === "ok" ? data.result.data : undefined;
  return (
    <div className={`approval-card ${data.state}`} data-card={data.approvalId} data-state={data.state}>
      <h3>{TITLES[data.state]}</h3>
      <p>{data.message}</p>
      {output !== undefined && <pre className="result">{JSON.stringify(output)}</pre>}
      <p className="muted">{data.approvalId}</p>
    </div>
  );
}
