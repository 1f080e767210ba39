import { os } from "@orpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  describeApproval,
  mayDecide,
  type Actor,
  type ApprovalsConfig,
} from "../../src/index.js";

// mayDecide (issue 50): a channel offers Approve / Reject only to someone `runtime.approvals.decide` would accept
// under SI-4. Checked against the runtime itself: for every candidate, the view's answer is decide's.

const dana: Actor = { id: "u_dana", kind: "user", via: { id: "agent_support" } };
const candidates: Actor[] = [
  { id: "u_dana", kind: "user" },
  { id: "U_DANA", kind: "user" },
  { id: "agent_support", kind: "service" },
  { id: "u_ben", kind: "user", via: { id: "agent_support" } },
  { id: "u_ben", kind: "user", via: { id: "u_dana" } },
  { id: "u_ben", kind: "user" },
  { id: "u_mo", kind: "user" },
  { id: "anon", kind: "anonymous" },
];

function setup(options: { quorum?: number; type?: string; approvals?: Omit<ApprovalsConfig, "coordinator"> } = {}) {
  const registry = createCapabilityRegistry({
    send: agentProcedure(os)
      .meta(
        agentMeta({
          description: "Send a note.",
          expose: { direct: true },
          sideEffect: "write",
          risk: "low",
          approval: { required: true, ...(options.type === undefined ? {} : { type: options.type }), ...(options.quorum === undefined ? {} : { quorum: options.quorum }) },
        }),
      )
      .input(z.object({ to: z.string() }))
      .handler(() => "sent"),
  });
  const approvals = { coordinator: createInMemoryApprovalCoordinator(), ...options.approvals };
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }), audit: () => undefined, approvals });
  return { runtime, approvals };
}

async function decideOutcome(options: Parameters<typeof setup>[0], votes: Actor[], candidate: Actor, status: "approved" | "rejected") {
  const { runtime, approvals } = setup(options);
  const result = await runtime.invoke("send", { to: "x" }, { actor: dana, context: {} });
  if (result.status !== "approval-required") throw new Error(result.status);
  for (const vote of votes) await runtime.approvals.decide(result.approval.id, { status: "approved", approver: vote });
  const record = (await runtime.approvals.get(result.approval.id))!;
  const view = describeApproval(record, runtime.registry.get("send"), {
    now: new Date(),
    selfApproval: { rejectSelfApproval: approvals.rejectSelfApproval, requesterConfirmable: approvals.requesterConfirmable },
  });
  const offered = mayDecide(view, candidate, status === "approved" ? "approve" : "reject");
  let accepted = true;
  try {
    await runtime.approvals.decide(result.approval.id, { status, approver: candidate });
  } catch {
    accepted = false;
  }
  return { offered, accepted };
}

describe("mayDecide", () => {
  const scenarios: [string, Parameters<typeof setup>[0], Actor[]][] = [
    ["one approver", {}, []],
    ["a requester-confirmable type", { type: "confirmation", approvals: { requesterConfirmable: ["confirmation"] } }, []],
    ["rejectSelfApproval: false", { approvals: { rejectSelfApproval: false } }, []],
    ["a quorum of two, one counted", { quorum: 2 }, [{ id: "u_mo", kind: "user" }]],
    ["a quorum of two, one counted, rejectSelfApproval: false", { quorum: 2, approvals: { rejectSelfApproval: false } }, [{ id: "u_mo", kind: "user" }]],
    ["an approved record", {}, [{ id: "u_mo", kind: "user" }]],
  ];
  for (const [name, options, votes] of scenarios) {
    it(`SI-4: offers the decision exactly to whom decide accepts it (${name})`, async () => {
      for (const candidate of candidates) {
        for (const status of ["approved", "rejected"] as const) {
          const { offered, accepted } = await decideOutcome(options, votes, candidate, status);
          expect({ candidate, status, offered }).toEqual({ candidate, status, offered: accepted });
        }
      }
    });
  }

  it("SI-4: nobody may decide a record past its expiry, nor with a view that is no view", async () => {
    const { runtime } = setup();
    const result = await runtime.invoke("send", { to: "x" }, { actor: dana, context: {} });
    if (result.status !== "approval-required") throw new Error(result.status);
    const later = new Date(result.approval.expiresAt.getTime() + 1);
    const view = describeApproval(result.approval, runtime.registry.get("send"), { now: later });
    expect(mayDecide(view, { id: "u_ben", kind: "user" })).toBe(false);
    expect(mayDecide({} as never, { id: "u_ben", kind: "user" })).toBe(false);
    expect(mayDecide(null as never, { id: "u_ben", kind: "user" })).toBe(false);
  });
});
