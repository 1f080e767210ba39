// SI-3 for the acting agent on the remote surface (issue 30 part 3, ADR-029): behind createCapabilityRouter the
// acting agent is whatever the server's `resolve` authenticated, never a tool argument, a key beside the input in
// the request body, or an option of the client-side tool set; and it cannot change between request and resume.
import {
  agentMeta,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  definePolicy,
  deny,
  type Actor,
  type AgentAuditEvent,
} from "@orpc-agent/core";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import { createCapabilityRouter, createInMemoryInvocationJournal, createInvocationService } from "@orpc-agent/core/server";
import { toAISDKTools } from "@orpc-agent/ai-sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { runTool } from "../../packages/ai-sdk/test/support/run-tool.js";
import { quietly } from "../../packages/ai-sdk/test/support/remote-server.js";
import { serveOverRpc } from "./support/rpc-server.js";

const FORGED = "forged-agent";
const FORGED_ARGS = { via: { id: FORGED }, actor: { id: "root", kind: "service", via: { id: FORGED } }, agent: { actor: { via: { id: FORGED } } } };

// The server's own credentials: one token per (user, acting agent) pair; the body never names either.
const IDENTITIES: Record<string, Actor> = {
  "tok-dana-bot": { id: "u_dana", kind: "user", via: { id: "support-bot" } },
  "tok-dana-other": { id: "u_dana", kind: "user", via: { id: "other-agent" } },
  "tok-dana": { id: "u_dana", kind: "user" },
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function remoteApp() {
  const events: AgentAuditEvent[] = [];
  const seen: (string | null)[] = [];
  const handled: string[] = [];
  // Scoped to the forged agent: if a forged `via` ever reached policies, this deny would fire.
  const forgedOnly = definePolicy("forged-agent-denied", () => deny("forged", "The forged agent reached a policy."), { scope: { via: [FORGED] } });
  const watcher = definePolicy("records-via", (req) => (seen.push(req.actor.via?.id ?? null), { type: "allow" as const }));
  const registry = createCapabilityRegistry({
    who: ap
      .input(z.looseObject({}))
      .meta(agentMeta({ description: "Report who acts.", expose: { aiSdk: true }, sideEffect: "none", risk: "low" }))
      .handler(({ context }) => {
        handled.push("who");
        return { actor: context.agent?.actor.id ?? null, via: context.agent?.actor.via?.id ?? null };
      }),
    pay: ap
      .input(z.looseObject({ amount: z.number() }))
      .meta(agentMeta({ description: "Pay.", expose: { aiSdk: true }, sideEffect: "write", risk: "high", approval: { required: true } }))
      .handler(({ context }) => {
        handled.push("pay");
        return { via: context.agent?.actor.via?.id ?? null };
      }),
  });
  const runtime = createAgentRuntime({
    governance: defineGovernance({ registry, policies: [forgedOnly, watcher] }),
    approvals: { coordinator: createInMemoryApprovalCoordinator() },
    audit: (event) => void events.push(event),
  });
  const router = quietly(() =>
    createCapabilityRouter<{ authorization?: string }, Record<string, never>>({
      service: createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "si3", revision: "r1" }),
      runtime,
      surface: "aiSdk",
      resolve: async ({ context }) => {
        const actor = IDENTITIES[/^Bearer (.+)$/.exec(context.authorization ?? "")?.[1] ?? ""];
        return actor === undefined ? null : { actor, context: {} };
      },
      authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
    }),
  );
  const url = await serveOverRpc(router, closers, (req) => ({ authorization: req.headers.authorization }));
  const clientFor = (token: string) => createHTTPCapabilityClient({ url, headers: { authorization: `Bearer ${token}` } });
  return { runtime, events, seen, handled, clientFor };
}

let ids = 0;
const invocationId = async () => `inv-si3-remote-${process.pid}-${++ids}`;

describe("via on the remote surface comes from the server's authentication (SI-3)", () => {
  it("SI-3: remote ai-sdk tools — via, actor or agent in the tool arguments change neither ctx.agent.actor.via, policies nor audit", async () => {
    const { clientFor, events, seen } = await remoteApp();
    const withAgent = await toAISDKTools(clientFor("tok-dana-bot"), { invocationId });
    const withoutAgent = await toAISDKTools(clientFor("tok-dana"), { invocationId });
    expect(await runTool(withAgent, "who", FORGED_ARGS)).toEqual({ status: "ok", data: { actor: "u_dana", via: "support-bot" } });
    expect(await runTool(withoutAgent, "who", FORGED_ARGS)).toEqual({ status: "ok", data: { actor: "u_dana", via: null } });
    expect(seen).toEqual(["support-bot", null]);
    expect(JSON.stringify(events)).not.toContain(FORGED);
    expect(events.filter((e) => e.type === "capability.completed").map((e) => e.actor)).toEqual([
      { id: "u_dana", kind: "user", via: { id: "support-bot" } },
      { id: "u_dana", kind: "user" },
    ]);
  });

  it("SI-3: a request body naming via, actor or context beside the input is refused before anything is run, journaled or audited", async () => {
    const { clientFor, events, handled } = await remoteApp();
    const client = clientFor("tok-dana");
    for (const extra of [{ via: { id: FORGED } }, { actor: IDENTITIES["tok-dana-bot"] }, { context: { agent: { actor: { via: { id: FORGED } } } } }]) {
      const request = { capabilityId: "who", input: {}, invocationId: await invocationId(), ...extra };
      const result = await client.invoke(request as Parameters<typeof client.invoke>[0]);
      expect(result).toMatchObject({ status: "failed" });
      // Refused, not outcome-unknown: nothing was claimed for that id, so reconcile knows no such invocation.
      expect(await client.reconcile({ invocationId: request.invocationId })).toMatchObject({ state: "absent" });
    }
    expect(handled).toEqual([]);
    expect(events).toEqual([]);
  });

  it("SI-3: toAISDKTools over a CapabilityClient refuses a via option: the server, not the client, names the acting agent", async () => {
    const { clientFor } = await remoteApp();
    await expect(toAISDKTools(clientFor("tok-dana"), { invocationId, via: { id: FORGED } } as never)).rejects.toThrow(/options\.via does not apply/);
  });
});

describe("the acting agent cannot change between a remote request and its resume (SI-3)", () => {
  async function suspended() {
    const app = await remoteApp();
    const id = await invocationId();
    const first = await app.clientFor("tok-dana-bot").invoke({ capabilityId: "pay", input: { amount: 5, ...FORGED_ARGS }, invocationId: id });
    if (first.status !== "approval-required") throw new Error(`expected a suspension, got ${first.status}`);
    const record = await app.runtime.approvals.get(first.approval.id);
    expect(record?.actor).toEqual({ id: "u_dana", kind: "user", via: { id: "support-bot" } });
    await app.runtime.approvals.decide(first.approval.id, { status: "approved", approver: { id: "u_manager", kind: "user" } });
    return { ...app, invocation: id, approvalId: first.approval.id };
  }

  it("SI-3: a resume authenticated with another acting agent does not run, and the approval stays usable for the original one", async () => {
    const { clientFor, runtime, handled, invocation, approvalId } = await suspended();
    const refused = await clientFor("tok-dana-other").resume({ invocationId: invocation, approvalId });
    expect(refused).toMatchObject({ status: "failed" });
    expect(handled).toEqual([]);
    expect((await runtime.approvals.get(approvalId))?.status).toBe("approved");
    const resumed = await clientFor("tok-dana-bot").resume({ invocationId: invocation, approvalId });
    expect(resumed).toMatchObject({ status: "completed", output: { via: "support-bot" } });
    expect(handled).toEqual(["pay"]);
  });

  it("SI-3: a resume authenticated as the user alone runs with the record's acting agent, never with none (docs/guides/acting-agent.md)", async () => {
    const { clientFor, events, invocation, approvalId } = await suspended();
    const resumed = await clientFor("tok-dana").resume({ invocationId: invocation, approvalId });
    expect(resumed).toMatchObject({ status: "completed", output: { via: "support-bot" } });
    expect(events.find((e) => e.type === "capability.completed")?.actor).toEqual({ id: "u_dana", kind: "user", via: { id: "support-bot" } });
    expect(JSON.stringify(events)).not.toContain(FORGED);
  });
});
