// docs/architecture/spec/distributed.md#distributed-10 WF11, docs/architecture/spec/adapters.md#adapters-5-1 "dbos" row: the shared conformance script through the workflow
// harness. `callTool` starts a one-step workflow running `steps.invoke` and awaits its result or its suspension
// (the journal row `pending` with the approval, read through `service.reconcile`); `decide` is the application's
// path, `runtime.approvals.decide` then `steps.wake({ approvalId })`; `resume` awaits the workflow, whose step
// resumes through `service.resume`. Abort is DBOS workflow cancellation. Delivery is journaled.
import { randomUUID } from "node:crypto";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { afterAll, beforeAll, describe } from "vitest";
import { createAgentRuntime, type Actor } from "@orpc-agent/core";
import type { RemoteExecutionResult } from "@orpc-agent/core/client";
import { createInvocationService, type InvocationService } from "@orpc-agent/core/server";
import {
  describeAdapterConformance,
  type AdapterEnvelope,
  type ConformanceFixture,
  type ConformanceHarness,
} from "../../../test-fixtures/conformance.js";
import { createDBOSCapabilitySteps, dbosInvocationId, type DBOSCapabilitySteps } from "../src/index.js";
import { createTestDatabase, REAL_SERVER, type TestDatabase } from "./support/database.js";
import { launchDbos } from "./support/dbos.js";
import { createPgInvocationJournal, INVOCATIONS_DDL } from "./support/postgres.js";

const KEY = "call";

// One registered workflow for every harness (DBOS registers before launch); each run finds its harness's steps.
const stepsOfHarness = new Map<string, DBOSCapabilitySteps>();
const oneStepWorkflow = DBOS.registerWorkflow(
  async (harnessId: string, capabilityId: string, args: unknown) => {
    const steps = stepsOfHarness.get(harnessId);
    if (steps === undefined) throw new Error(`conformance: unknown harness ${harnessId}`);
    return steps.invoke(capabilityId, args, { key: KEY });
  },
  { name: "conformance.oneStep" },
);

let db: TestDatabase;
let service: InvocationService;
/** Every workflow a harness started, settled or not; cancelled and awaited before DBOS shuts down. */
const started = new Map<string, Promise<unknown>>();
/** Workflows seen suspended, with the topic their wait listens on. */
const suspensions: { workflowID: string; topic: string }[] = [];

function toEnvelope(result: RemoteExecutionResult): AdapterEnvelope {
  switch (result.status) {
    case "completed":
      return { status: "ok", data: result.output };
    case "approval-required":
      return { status: "approval-required", approvalId: result.approval.id, message: approvalMessage(result.approval.reasons) };
    case "outcome-unknown":
      return { status: "outcome-unknown", invocationId: result.invocationId, message: result.message };
    default: {
      const { code, message, retryable, details } = result.error;
      return { status: "error", error: details === undefined ? { code, message, retryable } : { code, message, retryable, details } };
    }
  }
}

/** docs/architecture/spec/adapters.md#adapters-1-5. */
function approvalMessage(reasons: readonly string[]): string {
  if (reasons.length === 0) return "Awaiting approval.";
  return `Awaiting approval: ${reasons.map((reason) => (reason.endsWith(".") ? reason.slice(0, -1) : reason)).join("; ")}.`;
}

const cancelledWhileRunning = (invocationId: string): AdapterEnvelope => ({
  status: "outcome-unknown",
  invocationId,
  message: "The workflow was cancelled while its step ran; the effect may or may not have happened.",
});

async function dbosHarness(fixture: ConformanceFixture): Promise<ConformanceHarness> {
  const runtime = () => createAgentRuntime({ governance: fixture.governance, approvals: { coordinator: fixture.approvals }, audit: fixture.audit });
  const harnessId = randomUUID();
  const steps = createDBOSCapabilitySteps({
    service,
    runtime,
    // The workflow's persisted initiating identity, never its input (docs/architecture/spec/adapters.md#adapters-1-7).
    actor: (): Actor => ({ id: DBOS.authenticatedUser, kind: "user" }),
    context: () => ({}),
  });
  stepsOfHarness.set(harnessId, steps);
  const suspendedOn = new Map<string, { actor: Actor; outcome: Promise<AdapterEnvelope> }>();

  return {
    surface: "workflow",
    naming: "identity",
    scopes: true,
    async listTools(actor, o) {
      const descriptors = await runtime().describe("workflow", o?.scope === undefined ? { actor, context: {} } : { actor, context: {}, scope: o.scope });
      return descriptors.map((descriptor) => ({ name: descriptor.id, description: descriptor.description, inputSchema: descriptor.inputSchema, native: descriptor }));
    },
    async callTool(actor, toolName, rawArgs, o) {
      const workflowID = `conformance-${randomUUID()}`;
      const invocationId = dbosInvocationId(workflowID, KEY);
      const handle = await DBOS.startWorkflow(oneStepWorkflow, { workflowID, authenticatedUser: actor.id })(harnessId, toolName, rawArgs);
      let settled = false;
      const outcome = handle.getResult().then(
        (result) => toEnvelope(result),
        (error: unknown) => {
          if ((error as Error).name === "DBOSWorkflowCancelledError" || /has been cancelled/.test((error as Error).message)) return cancelledWhileRunning(invocationId);
          throw error;
        },
      );
      const tracked = outcome.finally(() => (settled = true));
      started.set(workflowID, tracked.catch(() => undefined));

      // Abort = DBOS workflow cancellation: it preempts the workflow at its next step and never aborts the
      // running one, so the effect is uncertain (docs/architecture/spec/adapters.md#adapters-5-1, C21).
      const aborted = new Promise<AdapterEnvelope>((resolve) => {
        const signal = o?.signal;
        if (signal === undefined) return;
        const cancel = () => void DBOS.cancelWorkflow(workflowID).then(() => resolve(cancelledWhileRunning(invocationId)));
        if (signal.aborted) cancel();
        else signal.addEventListener("abort", cancel, { once: true });
      });

      // Suspension: the step's journal row is pending with its approval, as the requester can reconcile it.
      const suspended = (async (): Promise<AdapterEnvelope | undefined> => {
        while (!settled) {
          const seen = await service.reconcile(invocationId, { actor, surface: "workflow" });
          if (seen.state === "pending" && seen.result !== undefined) return toEnvelope(seen.result);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return undefined;
      })();
      const first = await Promise.race([tracked, aborted, suspended.then((envelope) => envelope ?? tracked)]);
      if (first.status === "approval-required") {
        suspendedOn.set(first.approvalId, { actor, outcome });
        suspensions.push({ workflowID, topic: `orpc-agent:${first.approvalId}` });
      }
      return first;
    },
    async decide(approvalId, decision) {
      await runtime().approvals.decide(approvalId, decision);
      await steps.wake({ approvalId });
    },
    async resume(actor, approvalId) {
      const suspension = suspendedOn.get(approvalId);
      if (suspension === undefined) throw new Error(`conformance: no workflow is suspended on ${approvalId}`);
      if (suspension.actor.id !== actor.id) throw new Error(`conformance: ${approvalId} belongs to the workflow of ${suspension.actor.id}`);
      // The workflow's own step resumes through service.resume; awaiting it again replays its stored result.
      return suspension.outcome;
    },
    async auditEvents() {
      return fixture.audit.events();
    },
  };
}

describe(`@orpc-agent/dbos on a ${REAL_SERVER}`, () => {
  beforeAll(async () => {
    db = await createTestDatabase("conformance");
    await db.pool.query(INVOCATIONS_DDL);
    service = createInvocationService({
      journal: createPgInvocationJournal({ query: (sql, params) => db.pool.query(sql, params) }),
      namespace: "conformance",
      revision: "test",
    });
    await launchDbos(db.url);
  });

  afterAll(async () => {
    // Workflows still suspended on an approval nobody decided, and the step a cancellation left running.
    const open = await DBOS.listWorkflows({ status: "PENDING" });
    await Promise.all(open.map((workflow) => DBOS.cancelWorkflow(workflow.workflowID)));
    // A message ends their wait at once, so they notice the cancellation now rather than at their next poll.
    const stillOpen = new Set(open.map((workflow) => workflow.workflowID));
    await Promise.all(suspensions.filter((s) => stillOpen.has(s.workflowID)).map((s) => DBOS.send(s.workflowID, null, s.topic)));
    await Promise.all(started.values());
    await DBOS.shutdown();
    await db?.drop();
  });

  describeAdapterConformance("dbos", dbosHarness, {
    delivery: "journaled",
    notApplicable: {
      C11:
        "DBOS workflow cancellation preempts the workflow at its next step and never aborts the step already running " +
        "(distributed.md §9.2), so the slow handler never sees its signal abort; the cancelled-write mapping is C21's",
    },
  });
});
