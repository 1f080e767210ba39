// The floor under issue 28's sinked row: the work the spec requires of a governed call with an audit sink and three
// allowing policies, written by hand around the same raw oRPC `call`, with no pipeline around it. No real runtime
// can cost less, so where this floor's own ratio is over a budget, that budget is out of reach.
// What it keeps, each the cheapest way this machine offers:
// - an execution id (docs/architecture/spec/core.md#core-5, stage 2): one randomUUID;
// - the frozen input every observer shares (SI-6): one frozen copy;
// - the input hash in every event (docs/architecture/spec/core.md#core-5, stage 5, with a sink configured): SHA-256 over the canonical JSON, here
//   JSON.stringify, which is canonical for this one-key input;
// - three envelopes (`capability.requested`, `started`, `completed`), each frozen with its own Date and frozen data,
//   handed to the async sink with one rejection handler each (docs/architecture/spec/core.md#core-11: a failing sink must not break the call);
// - three policy calls and their verdict check (stage 7);
// - the handler's time bounded (docs/architecture/spec/core.md#core-16: one timer, one controller per attempt): an
//   AbortController whose signal the call receives, and one unref'd timer armed before the call and cleared after.
// What it leaves out, though the runtime must do it: the actor check, output redaction, policy records and
// deadlines, the retry loop, the result's error envelope.
import { call } from "@orpc/server";
import { hash, randomUUID } from "node:crypto";
import type { AgentAuditEvent } from "@orpc-agent/core";
import { raw } from "./fixtures.js";

type Policy = () => { kind: string };

/** The runtime's default attempt timeout: the timer is armed as it would be, and never fires. */
const TIMEOUT_MS = 30_000;

export function sinkedFloor(sink: (event: AgentAuditEvent) => Promise<void>, policies: readonly Policy[]) {
  const actor = Object.freeze({ id: "bench", kind: "service" });
  const ignore = () => {};
  const deliver = (event: object) => void sink(event as AgentAuditEvent).then(undefined, ignore);
  const envelope = (type: string, executionId: string, inputHash: string, data: object) =>
    Object.freeze({ type, timestamp: new Date(), surface: "direct", actor, executionId, capabilityId: "trivial", inputHash, data: Object.freeze(data) });

  return async (input: { id: string }) => {
    const executionId = `exe_${randomUUID()}`;
    const bound = Object.freeze({ id: input.id });
    const inputHash = hash("sha256", JSON.stringify(bound), "hex");
    deliver(envelope("capability.requested", executionId, inputHash, { sideEffect: "read", risk: "low" }));
    for (const policy of policies) if (policy().kind !== "allow") throw new Error("denied");
    deliver(envelope("capability.started", executionId, inputHash, { attempt: 1 }));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    timer.unref();
    let output: unknown;
    try {
      output = await call(raw, bound, { context: {}, signal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
    deliver(envelope("capability.completed", executionId, inputHash, { durationMs: 0, attempts: 1 }));
    return { status: "completed" as const, executionId, output };
  };
}
