import { DBOS } from "@dbos-inc/dbos-sdk";
import type { RemoteApproval } from "@orpc-agent/core/client";
import { approvalStatusStep } from "./durable-steps.js";
import type { StepCall, StepCounter, StepsState } from "./state.js";
import { approvalTopic } from "./topics.js";

// The coordinator decides expiry with its own clock; a little slack keeps a skewed clock from ending the
// wait a moment before the coordinator itself reports "expired".
const EXPIRY_SLACK_MS = 1_000;

/**
 * Suspends the workflow on DBOS's own durable wait until the approval is decided or expired, or `deadline`
 * passes (docs/architecture/spec/distributed.md#distributed-9-2). Each round is a `DBOS.recv` on the approval's topic, bounded by
 * `approvalPollMs`, then a numbered step reading the coordinator: the message only shortens the wait, so a
 * lost `wake` costs latency, and a duplicate one an extra read.
 */
export async function waitForDecision<TContext>(
  s: StepsState<TContext>,
  call: StepCall,
  counter: StepCounter,
  approval: RemoteApproval,
  o: { deadline: number; checkFirst: boolean },
): Promise<void> {
  const expiresAt = Date.parse(approval.expiresAt);
  const until = Math.min(o.deadline, Number.isNaN(expiresAt) ? Infinity : expiresAt + EXPIRY_SLACK_MS);
  // A replayed suspension may have been decided long ago, its message consumed by an earlier run: look first.
  let read = o.checkFirst;
  for (;;) {
    if (read) {
      const status = await approvalStatusStep(s, call, approval.id, ++counter.approval);
      // An unreadable coordinator is not a decision: keep waiting, the deadline still bounds it.
      if (status !== "pending" && status !== "unavailable") return;
    }
    const remaining = until - (await DBOS.now());
    if (remaining <= 0) return;
    await DBOS.recv(approvalTopic(approval.id), { timeoutSeconds: Math.min(remaining, s.approvalPollMs) / 1000 });
    read = true;
  }
}
