// SI-12 on the remote client (issue 46): invoke with onEvent reads the stream frame by frame, waiting on onEvent
// before the next. The attack: a consumer whose onEvent never settles. The caller's abort and the call's timeout must
// still end the call, as they do in the runtime itself (where the whole-stream bound counts consumer time): the
// client answers outcome-unknown, and stops reading so the server's stream is let go.
import { eventIterator } from "@orpc/server";
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import { createCapabilityRouter, createInMemoryInvocationJournal, createInvocationService } from "@orpc-agent/core/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { quietly } from "../../packages/ai-sdk/test/support/remote-server.js";
import { serveOverRpc } from "./support/rpc-server.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve() {
  const registry = createCapabilityRegistry({
    feed: ap
      .output(eventIterator(z.object({ n: z.number() })))
      .meta(agentMeta({ description: "Streams.", expose: { aiSdk: true }, sideEffect: "read", risk: "low", timeoutMs: 2_000 }))
      .handler(async function* () {
        for (let n = 1; n <= 3; n++) yield { n };
      }),
  });
  const runtime = createAgentRuntime({ governance: defineGovernance({ registry }) });
  const service = createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "si12c", revision: "r1" });
  const router = quietly(() =>
    createCapabilityRouter<Record<string, never>, Record<string, never>>({
      service,
      runtime,
      surface: "aiSdk",
      resolve: async () => ({ actor: { id: "dana", kind: "user" }, context: {} }),
      authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
    }),
  );
  return createHTTPCapabilityClient({ url: await serveOverRpc(router, closers) });
}

describe("SI-12: a remote consumer that never takes an event", () => {
  it("SI-12: the caller's abort still ends the call (outcome-unknown, aborted)", async () => {
    const client = await serve();
    const controller = new AbortController();
    let first!: () => void;
    const held = new Promise<void>((resolve) => (first = resolve));
    const pending = client.invoke(
      { capabilityId: "feed", input: {}, invocationId: "inv_si12_abort" },
      {
        signal: controller.signal,
        onEvent: () => {
          first();
          return new Promise<void>(() => {});
        },
      },
    );
    await held;
    controller.abort();
    expect(await pending).toMatchObject({ status: "outcome-unknown", reason: "aborted" });
  });

  it("SI-12: the call's timeout still ends the call (outcome-unknown, timeout)", async () => {
    const client = await serve();
    const result = await client.invoke({ capabilityId: "feed", input: {}, invocationId: "inv_si12_timeout" }, { timeoutMs: 100, onEvent: () => new Promise<void>(() => {}) });
    expect(result).toMatchObject({ status: "outcome-unknown", reason: "timeout" });
  });
});
