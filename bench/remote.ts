// What the distributed authority adds to one call over the network: a remote invoke through
// createCapabilityRouter + createHTTPCapabilityClient (claim, runtime, settlement, replay-safe envelope)
// against a plain oRPC RPCLink call of the same procedure, both over loopback HTTP to one node:http server.
// Reported, not budgeted (docs/architecture/spec/core.md#core-16 has no remote row). The subpaths are imported from the built dist,
// like "@orpc-agent/core" in bench/tsconfig.json, so every import shares one core instance.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createORPCClient } from "@orpc/client";
import { RPCLink } from "@orpc/client/fetch";
import { RPCHandler } from "@orpc/server/node";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createHTTPCapabilityClient } from "../packages/core/dist/http/index.js";
import { createCapabilityRouter, createInMemoryInvocationJournal, createInvocationService } from "../packages/core/dist/server/index.js";
import { raw, trivial } from "./fixtures.js";
import { interleave, timeSequential } from "./harness.js";

export type RemoteBenchRow = { path: string; subjectNs: number; baselineNs: number; ratio: number };

export async function remoteCost(options: { rounds: number; calls: number }): Promise<RemoteBenchRow[]> {
  const governance = defineGovernance({ registry: createCapabilityRegistry({ trivial }) });
  const service = createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "bench", revision: "r1" });
  const actor = { id: "bench", kind: "service" as const };
  const warn = console.warn;
  console.warn = () => {}; // the in-memory journal's non-durable warning
  const agent = createCapabilityRouter({
    service,
    runtime: () => createAgentRuntime({ governance }), // one runtime per request, as in production
    surface: "aiSdk",
    resolve: async () => ({ actor, context: {} }),
    authorize: { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true },
  });
  console.warn = warn;
  const handler = new RPCHandler({ raw, agent });
  const server = createServer((req, res) => void handler.handle(req, res, { prefix: "/rpc", context: {} }));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
  try {
    const plain = createORPCClient<{ raw: (input: { id: string }) => Promise<unknown> }>(new RPCLink({ url }));
    const remote = createHTTPCapabilityClient({ url });
    const input = { id: "x" };
    let n = 0;
    await remote.invoke({ capabilityId: "trivial", input, invocationId: "bench-replayed" });
    const m = await interleave(
      {
        plain: () => timeSequential(() => plain.raw(input), options.calls),
        remote: () => timeSequential(() => remote.invoke({ capabilityId: "trivial", input, invocationId: `bench-${++n}` }), options.calls),
        replayed: () => timeSequential(() => remote.invoke({ capabilityId: "trivial", input, invocationId: "bench-replayed" }), options.calls),
      },
      options.rounds,
    );
    return [
      { path: "remote invoke, loopback HTTP", subjectNs: m.remote!, baselineNs: m.plain!, ratio: m.remote! / m.plain! },
      { path: "remote invoke replayed, loopback HTTP", subjectNs: m.replayed!, baselineNs: m.plain!, ratio: m.replayed! / m.plain! },
    ];
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}
