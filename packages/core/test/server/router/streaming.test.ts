// Issue 46, remote mode: streaming capabilities over oRPC's own event-iterator transport (the router's invokeStream
// and resumeStream). Events reach `onEvent` as they arrive, redacted and RPC-encoded; the call resolves with the final
// envelope; the journal records the terminal outcome only, so a replay answers it without the events.
import { eventIterator, os } from "@orpc/server";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { agentMeta, agentProcedure, createCapabilityRegistry, type ProgressUpdate } from "../../../src/index.js";
import type { RemoteExecuteOptions } from "../../../src/client/index.js";
import { createInProcessCapabilityClient } from "../../../src/server/index.js";
import { dana, latch, newInvocationId, priya, startShop, type Shop } from "../remote-fixture.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

const base = agentProcedure(os);
const everywhere = { aiSdk: true, mcp: true, workflow: true, direct: true } as const;
const AT = new Date("2030-01-02T03:04:05.000Z");

/** What each streaming handler did: pages produced, and whether its iterator was closed. */
function streamingRegistry(o: { pages?: number; gate?: () => Promise<void> } = {}) {
  const pages = o.pages ?? 3;
  const trace = { produced: 0, closed: false, writes: 0 };
  const page = z.object({ page: z.number(), at: z.date(), secret: z.string().optional() });
  const registry = createCapabilityRegistry({
    exports: {
      orders: base
        .input(z.object({ customerId: z.string() }))
        .output(eventIterator(page))
        .meta(
          agentMeta({
            description: "Export orders page by page.",
            expose: everywhere,
            sideEffect: "read",
            risk: "low",
            redact: { output: (event) => ({ ...(event as object), secret: "[redacted]" }) },
          }),
        )
        .handler(async function* ({ context }) {
          try {
            for (let n = 1; n <= pages; n++) {
              context.agent?.reportProgress({ progress: n, total: pages, message: `page ${n}` });
              trace.produced++;
              yield { page: n, at: AT, secret: "s3cr3t" };
              await o.gate?.();
            }
          } finally {
            trace.closed = true;
          }
        }),
    },
    ledger: {
      sync: base
        .input(z.object({}))
        .output(eventIterator(z.object({ batch: z.number() })))
        .meta(agentMeta({ description: "Sync the ledger batch by batch.", expose: everywhere, sideEffect: "write", risk: "medium" }))
        .handler(async function* () {
          for (let batch = 1; batch <= 3; batch++) {
            trace.writes++;
            yield { batch };
            await o.gate?.();
          }
        }),
    },
    payouts: {
      run: base
        .input(z.object({}))
        .output(eventIterator(z.object({ paid: z.number() })))
        .meta(agentMeta({ description: "Pay out.", expose: everywhere, sideEffect: "write", risk: "high", approval: { required: true, type: "manager" } }))
        .handler(async function* () {
          yield { paid: 1 };
          yield { paid: 2 };
        }),
    },
    reports: {
      build: base
        .input(z.object({}))
        .meta(agentMeta({ description: "Build a report.", expose: everywhere, sideEffect: "read", risk: "low" }))
        .handler(({ context }) => {
          for (let step = 1; step <= 4; step++) context.agent?.reportProgress({ progress: step, total: 4 });
          return { ready: true };
        }),
    },
  });
  return { registry, trace };
}

function collect() {
  const events: unknown[] = [];
  const progress: ProgressUpdate[] = [];
  const options: RemoteExecuteOptions = { onEvent: (event) => void events.push(event), onProgress: (update) => void progress.push(update) };
  return { events, progress, options };
}

const REDACTED = [1, 2, 3].map((page) => ({ page, at: AT, secret: "[redacted]" }));

describe("remote streaming (invokeStream, resumeStream)", () => {
  it("describe marks a streaming capability; its events reach onEvent redacted and RPC-decoded; the call resolves with the final envelope", async () => {
    const { registry } = streamingRegistry();
    shop = await startShop({ registry });
    const client = shop.client();
    const listed = await client.describe();
    expect(listed.descriptors.find((d) => d.id === "exports.orders")?.streaming).toBe(true);
    expect(listed.descriptors.find((d) => d.id === "reports.build")?.streaming).toBeUndefined();

    const seen = collect();
    const invocationId = newInvocationId();
    const result = await client.invoke({ capabilityId: "exports.orders", input: { customerId: "c_1" }, invocationId }, seen.options);
    expect(seen.events).toEqual(REDACTED);
    expect((seen.events[0] as { at: unknown }).at).toBeInstanceOf(Date);
    expect(result).toMatchObject({ status: "completed", output: REDACTED[2], replayed: false, invocationId });
    // Progress is throttled by the runtime: it rises, and the first and last reports get through.
    expect(seen.progress[0]).toEqual({ progress: 1, total: 3, message: "page 1" });
    expect(seen.progress.at(-1)).toMatchObject({ progress: 3 });
    expect(JSON.stringify(seen)).not.toContain("s3cr3t");
    const completed = shop.audit.find((e) => e.type === "capability.completed" && e.capabilityId === "exports.orders");
    expect(completed?.data).toMatchObject({ events: 3 });
  });

  it("the journal keeps the terminal outcome only: a replay of the id answers the final status, replayed, with no events", async () => {
    const { registry, trace } = streamingRegistry();
    shop = await startShop({ registry });
    const client = shop.client();
    const invocationId = newInvocationId();
    await client.invoke({ capabilityId: "exports.orders", input: { customerId: "c_1" }, invocationId }, collect().options);
    const again = collect();
    const replay = await client.invoke({ capabilityId: "exports.orders", input: { customerId: "c_1" }, invocationId }, again.options);
    expect(replay).toMatchObject({ status: "completed", output: REDACTED[2], replayed: true });
    expect(again.events).toEqual([]);
    expect(again.progress).toEqual([]);
    expect(trace.produced).toBe(3);
    expect(await client.reconcile({ invocationId })).toMatchObject({ state: "settled", result: { status: "completed", output: REDACTED[2] } });
    // The plain procedure replays the same outcome.
    expect(await client.invoke({ capabilityId: "exports.orders", input: { customerId: "c_1" }, invocationId })).toMatchObject({ status: "completed", replayed: true });
  });

  it("only what the caller asked for crosses: onProgress alone sends no events, and no onProgress sends no progress", async () => {
    const { registry } = streamingRegistry();
    shop = await startShop({ registry });
    const bodies: string[] = [];
    const client = shop.client(dana, {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        void response.clone().text().then((text) => bodies.push(text));
        return response;
      },
    });
    const progress: ProgressUpdate[] = [];
    const result = await client.invoke({ capabilityId: "exports.orders", input: { customerId: "c_1" }, invocationId: newInvocationId() }, { onProgress: (u) => void progress.push(u) });
    expect(result).toMatchObject({ status: "completed", output: REDACTED[2] });
    expect(progress.length).toBeGreaterThan(0);
    const events: unknown[] = [];
    await client.invoke({ capabilityId: "exports.orders", input: { customerId: "c_1" }, invocationId: newInvocationId() }, { onEvent: (e) => void events.push(e) });
    expect(events).toHaveLength(3);
    await expect.poll(() => bodies.length).toBe(2);
    expect(bodies[0]).not.toContain('"type":"event"');
    expect(bodies[0]).toContain('"type":"progress"');
    expect(bodies[1]).toContain('"type":"event"');
    expect(bodies[1]).not.toContain('"type":"progress"');
  });

  it("a plain capability's progress reaches onProgress; its result is unchanged", async () => {
    const { registry } = streamingRegistry();
    shop = await startShop({ registry });
    const seen = collect();
    const result = await shop.client().invoke({ capabilityId: "reports.build", input: {}, invocationId: newInvocationId() }, seen.options);
    expect(result).toMatchObject({ status: "completed", output: { ready: true } });
    expect(seen.events).toEqual([]);
    expect(seen.progress[0]).toEqual({ progress: 1, total: 4 });
    expect(seen.progress.at(-1)).toEqual({ progress: 4, total: 4 });
  });

  it("backpressure end to end: while onEvent holds the first event, the handler stays a few events ahead at most", async () => {
    const { registry, trace } = streamingRegistry({ pages: 200 });
    shop = await startShop({ registry });
    // In process: no socket buffers, only the streams between the handler and onEvent.
    const client = createInProcessCapabilityClient(shop.router, { context: { headers: { "x-actor": dana.id } } });
    const hold = latch();
    const first = latch();
    let received = 0;
    const calling = client.invoke(
      { capabilityId: "exports.orders", input: { customerId: "c_1" }, invocationId: newInvocationId() },
      {
        onEvent: async () => {
          received++;
          if (received === 1) {
            first.release();
            await hold.promise;
          }
        },
      },
    );
    await first.promise;
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
    expect(trace.produced).toBeLessThan(10);
    hold.release();
    expect(await calling).toMatchObject({ status: "completed", output: { page: 200 } });
    expect(received).toBe(200);
  });

  it("a caller that stops taking events: a read is cancelled on the server, a write runs to its end; both answer outcome-unknown aborted", async () => {
    // Each handler waits after its first event until the test lets it go, so the caller stops mid-stream.
    let gate = latch();
    const { registry, trace } = streamingRegistry({ gate: () => gate.promise });
    shop = await startShop({ registry });
    const client = shop.client();
    const stop = () => {
      throw new Error("the caller stopped");
    };
    const read = newInvocationId();
    expect(await client.invoke({ capabilityId: "exports.orders", input: { customerId: "c_1" }, invocationId: read }, { onEvent: stop })).toMatchObject({
      status: "outcome-unknown",
      reason: "aborted",
    });
    await expect.poll(async () => (await client.reconcile({ invocationId: read })).state).toBe("settled");
    gate.release();
    expect(await client.reconcile({ invocationId: read })).toMatchObject({ result: { status: "cancelled", error: { code: "CANCELLED" } } });
    await expect.poll(() => trace.closed).toBe(true);
    expect(trace.produced).toBeLessThan(3);

    gate = latch();
    const write = newInvocationId();
    expect(await client.invoke({ capabilityId: "ledger.sync", input: {}, invocationId: write }, { onEvent: stop })).toMatchObject({ status: "outcome-unknown", reason: "aborted" });
    expect(trace.writes).toBe(1);
    gate.release();
    await expect.poll(async () => (await client.reconcile({ invocationId: write })).state).toBe("settled");
    expect(await client.reconcile({ invocationId: write })).toMatchObject({ result: { status: "completed", output: { batch: 3 } } });
    expect(trace.writes).toBe(3);
  });

  it("a gated stream: invoke answers approval-required with no events; resumeStream delivers the events after the decision", async () => {
    const { registry } = streamingRegistry();
    shop = await startShop({ registry });
    const client = shop.client();
    const invocationId = newInvocationId();
    const before = collect();
    const pending = await client.invoke({ capabilityId: "payouts.run", input: {}, invocationId }, before.options);
    expect(pending.status).toBe("approval-required");
    expect(before.events).toEqual([]);
    const approvalId = (pending as { approval: { id: string } }).approval.id;
    const runtime = shop.makeRuntime();
    await runtime.approvals.decide(approvalId, { status: "approved", approver: priya });
    const after = collect();
    const resumed = await client.resume({ invocationId, approvalId }, after.options);
    expect(after.events).toEqual([{ paid: 1 }, { paid: 2 }]);
    expect(resumed).toMatchObject({ status: "completed", output: { paid: 2 } });
    // A second resume replays the outcome without events.
    const replay = collect();
    expect(await client.resume({ invocationId, approvalId }, replay.options)).toMatchObject({ status: "completed", replayed: true });
    expect(replay.events).toEqual([]);
  });

  it("refusals keep their HTTP meaning on the streaming procedures: unauthenticated is failed UNAUTHENTICATED, nothing runs", async () => {
    const { registry, trace } = streamingRegistry();
    shop = await startShop({ registry });
    const seen = collect();
    const result = await shop.client(null).invoke({ capabilityId: "exports.orders", input: { customerId: "c_1" }, invocationId: newInvocationId() }, seen.options);
    expect(result).toMatchObject({ status: "failed", error: { code: "UNAUTHENTICATED" } });
    expect(seen.events).toEqual([]);
    expect(trace.produced).toBe(0);
  });

  it("a 200 that is not an event stream (a server answering plain JSON) is outcome-unknown unreadable-response, never a guess", async () => {
    const { registry } = streamingRegistry();
    shop = await startShop({ registry });
    const invocationId = newInvocationId();
    // Whatever is asked, this "server" answers a well-formed RPC JSON envelope, not an event stream.
    const envelope = { protocol: 1, invocationId, executionId: "exe_1", replayed: false, status: "completed", output: { ready: true } };
    const client = shop.client(dana, { fetch: async () => new Response(JSON.stringify({ json: envelope }), { status: 200, headers: { "content-type": "application/json" } }) });
    const seen = collect();
    const result = await client.invoke({ capabilityId: "reports.build", input: {}, invocationId }, seen.options);
    expect(result).toMatchObject({ status: "outcome-unknown", reason: "unreadable-response", invocationId });
    expect(seen.events).toEqual([]);
  });

  it("onEvent and onProgress must be functions: a TypeError before anything is sent", async () => {
    const { registry } = streamingRegistry();
    shop = await startShop({ registry });
    const client = shop.client();
    await expect(client.invoke({ capabilityId: "exports.orders", input: {}, invocationId: newInvocationId() }, { onEvent: 1 as never })).rejects.toThrow(TypeError);
    await expect(client.resume({ invocationId: newInvocationId(), approvalId: "apr_x" }, { onProgress: "x" as never })).rejects.toThrow(TypeError);
  });
});
