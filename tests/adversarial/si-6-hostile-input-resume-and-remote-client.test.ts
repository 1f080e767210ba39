// SI-6 (issue 43, finding 4) on the two paths where an input reaches the approval gate without passing stage 5 in
// the caller's process: resume, which reads the input back from a store (a coordinator handing back a record whose
// input is a cycle, a Proxy, a throwing or shifting getter, nesting no stack holds), and the remote client, which
// must encode the caller's input before anything is sent. Resume must refuse, typed, without consuming the approval
// or running anything, or run exactly the approved value; the remote client must send nothing it cannot encode, and
// what it does send is plain JSON the server binds as received.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { RPCHandler } from "@orpc/server/node";
import { agentMeta, allow, createAgentRuntime, createCapabilityRegistry, createInMemoryApprovalCoordinator, defineGovernance, definePolicy, type Actor, type ApprovalCoordinator } from "@orpc-agent/core";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import { createCapabilityRouter, createInMemoryInvocationJournal, createInvocationService } from "@orpc-agent/core/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { HOSTILE_INPUTS } from "./support/hostile-inputs.js";
import { approvalOf, base, build, dana, meta, mo } from "./support/runtime.js";
import { quietly } from "../../packages/ai-sdk/test/support/remote-server.js";

/** A store that hands back the stored record with its input replaced, once `tamper` is set. */
function rewritingStore() {
  const inner = createInMemoryApprovalCoordinator();
  const state: { rewrite?: (input: unknown) => unknown } = {};
  const coordinator: ApprovalCoordinator = {
    create: (request) => inner.create(request),
    decide: (id, decision) => inner.decide(id, decision),
    markConsumed: (id, executionId) => inner.markConsumed(id, executionId),
    async get(id) {
      const record = await inner.get(id);
      return record === null || state.rewrite === undefined ? record : { ...record, input: state.rewrite(record.input) };
    },
  };
  return { coordinator, inner, state };
}

const cyclic = (input: unknown) => {
  const copy: Record<string, unknown> = { ...(input as object) };
  copy.self = copy;
  return copy;
};
const deep = (input: unknown) => {
  let value: unknown = 1;
  for (let i = 0; i < 100_000; i++) value = { d: value };
  return { ...(input as object), deep: value };
};
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

describe("SI-6: resume of a record whose stored input no snapshot can bind", () => {
  async function approvedThenRewritten(rewrite: (input: unknown) => unknown) {
    const store = rewritingStore();
    const ran: unknown[] = [];
    const { runtime } = build({
      defs: { refund: base.meta({ agent: meta({ approval: { required: true } }) }).input(z.object({ amount: z.number() }).passthrough()).handler(({ input }) => (ran.push(input), "done")) },
      approvals: { coordinator: store.coordinator },
    });
    const id = approvalOf(await runtime.invoke("refund", { amount: 5 }, { actor: dana, context: {} })).id;
    await runtime.approvals.decide(id, { status: "approved", approver: mo });
    store.state.rewrite = rewrite;
    const result = await runtime.resume(id, { context: {} });
    return { result, ran, status: (await store.inner.get(id))!.status };
  }

  it.each([
    ["an input that contains itself", cyclic],
    ["100 000 levels of nesting", deep],
    ["a getter that throws", (input: unknown) => ({ ...(input as object), get boom(): never { throw new Error("boom"); } })],
    ["a revoked Proxy", revoked],
  ])("SI-6: %s is refused, typed; the approval stays approved and nothing runs", async (_label, rewrite) => {
    const { result, ran, status } = await approvedThenRewritten(rewrite);
    expect(result.status).toBe("failed");
    expect((result as { error: { code: string } }).error.code).toMatch(/^(INTERNAL_ERROR|APPROVAL_INPUT_MISMATCH|INPUT_INVALID)$/);
    expect(ran).toEqual([]);
    expect(status).toBe("approved");
  });

  it.each([
    ["a getter that answers the approved amount once, then 999", () => {
      let reads = 0;
      return { get amount() { return reads++ === 0 ? 5 : 999; } };
    }],
    ["a Proxy over the approved value", (input: unknown) => new Proxy({ ...(input as object) }, {})],
  ])("SI-6: %s runs the approved value, read once, or nothing", async (_label, rewrite) => {
    const { result, ran, status } = await approvedThenRewritten(rewrite as (input: unknown) => unknown);
    if (result.status === "completed") {
      expect(ran).toEqual([{ amount: 5 }]);
      expect(status).toBe("consumed");
    } else {
      expect(ran).toEqual([]);
      expect(status).toBe("approved");
    }
  });
});

describe("SI-6: the remote client and an input it cannot encode", () => {
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const close of closers.splice(0)) close();
  });

  async function serve() {
    const ran = { handler: 0, policies: 0, inputs: [] as unknown[] };
    const op = base
      .meta(agentMeta(meta({ expose: { direct: true, aiSdk: true }, approval: { required: true } })))
      .input(z.object({ v: z.any() }))
      .handler(() => (ran.handler++, "ran"));
    const watch = definePolicy("watch", (req) => (ran.policies++, ran.inputs.push(req.input), allow()));
    const runtime = createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry({ op }), policies: [watch] }), audit: () => {} });
    const router = quietly(() =>
      createCapabilityRouter<Record<string, never>, Record<string, never>>({
        service: createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "si6-client", revision: "r1" }),
        runtime,
        surface: "aiSdk",
        resolve: async () => ({ actor: dana as Actor, context: {} }),
        authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
      }),
    );
    const handler = new RPCHandler({ agent: router });
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      void handler.handle(req, res, { prefix: "/rpc", context: {} }).then(({ matched }) => {
        if (!matched) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    closers.push(() => (server.closeAllConnections(), server.close()));
    const client = createHTTPCapabilityClient({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc` });
    return { client, ran, requests: () => requests };
  }

  // Left out: a sparse array of length 2³² − 1. The client's encoder walks every index of it (minutes of CPU in the
  // caller's own process, before anything is sent); the runtime refuses it in linear time, and JSON cannot carry one
  // to the server. Reported with issue 43, not fixed here.
  const ENCODABLE_IN_TIME = HOSTILE_INPUTS.filter(([name]) => !name.startsWith("a sparse array"));

  it.each(ENCODABLE_IN_TIME)("SI-6: %s: nothing the server cannot parse is sent; what is sent binds as plain JSON", async (_name, make) => {
    const { client, ran, requests } = await serve();
    const hostile = make();
    const result = await client.invoke({ capabilityId: "op", input: { v: hostile.input }, invocationId: "inv-si6-client" });
    if (requests() === 0) {
      // Not sent: the generic failure of docs/architecture/spec/distributed.md#distributed-4 ("before dispatch"), never retryable, nothing ran.
      expect(result).toMatchObject({ status: "failed", error: { code: "INTERNAL_ERROR", retryable: false } });
      expect(ran).toMatchObject({ handler: 0, policies: 0 });
    } else {
      // Sent: the server saw plain data (the gate asked for approval, or stage 5 refused it), never the live value.
      expect(["approval-required", "failed"]).toContain(result.status);
      if (result.status === "failed") expect((result as { error: { code: string } }).error.code).toBe("INPUT_INVALID");
      expect(ran.handler).toBe(0);
      for (const input of ran.inputs) expect(() => JSON.stringify(input)).not.toThrow();
    }
  });
});
