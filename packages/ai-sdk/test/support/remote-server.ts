// The server side of the remote overload's tests (docs/architecture/spec/adapters.md#adapters-2-6, docs/architecture/spec/distributed.md#distributed-3): an invocation service and
// a capability router over a test runtime, reached in-process or through oRPC's RPCHandler on a loopback port.
// The actor comes from the request (a header or the in-process context), never from anything the model said.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { RPCHandler } from "@orpc/server/node";
import type { Actor, AgentRuntime } from "@orpc-agent/core";
import type { CapabilityClient } from "@orpc-agent/core/client";
import { createHTTPCapabilityClient } from "@orpc-agent/core/http";
import {
  createCapabilityRouter,
  createInMemoryInvocationJournal,
  createInProcessCapabilityClient,
  createInvocationService,
  type CapabilityRouter,
  type InvocationService,
  type ToolNaming,
} from "@orpc-agent/core/server";

/** What the router authenticates from: the actor header over HTTP, the actor itself in process. */
export type RequestContext = { headers?: IncomingHttpHeaders; actor?: Actor };

const ALLOW_ALL = { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true };

/** The in-memory journal is not durable, and the router says so once per construction; tests know. */
export function quietly<T>(build: () => T): T {
  const warn = console.warn;
  console.warn = () => {};
  try {
    return build();
  } finally {
    console.warn = warn;
  }
}

export function createTestService(toolNaming?: ToolNaming): InvocationService {
  return createInvocationService({ journal: createInMemoryInvocationJournal(), namespace: "tests", revision: "r1", ...(toolNaming ? { toolNaming } : {}) });
}

/** A capability router on surface `aiSdk` over `runtime`; `actors` are the identities the request may name. */
export function createTestRouter<TApp>(o: { runtime: AgentRuntime<TApp>; appContext: TApp; actors: readonly Actor[]; service?: InvocationService }) {
  const service = o.service ?? createTestService();
  const router = quietly(() =>
    createCapabilityRouter<RequestContext, TApp>({
      service,
      runtime: o.runtime,
      surface: "aiSdk",
      async resolve({ context }) {
        // In these tests a bearer token is simply the actor's id.
        const id = context.actor?.id ?? context.headers?.["x-actor"] ?? /^Bearer (.+)$/.exec(context.headers?.authorization ?? "")?.[1];
        const actor = o.actors.find((candidate) => candidate.id === id);
        return actor === undefined ? null : { actor, context: o.appContext };
      },
      authorize: ALLOW_ALL,
    }),
  );
  return { router, service };
}

/** A client calling `router` in this process as `actor`, through the RPC encoding an HTTP client meets. */
export function inProcessClient(router: CapabilityRouter<RequestContext>, actor: Actor): CapabilityClient {
  return createInProcessCapabilityClient(router, { context: { actor } });
}

/** An invocation id with ≥ 128 random bits (docs/architecture/spec/distributed.md#distributed-4). */
export const newInvocationId = (): string => `inv-${randomUUID()}`;

export type CapabilityServer = {
  url: string;
  service: InvocationService;
  /** An HTTP client that authenticates as `actor`. */
  clientFor(actor: Actor): CapabilityClient;
  /** Resolves once every request the server has received so far has been handled, aborted ones included. */
  idle(): Promise<void>;
  close(): Promise<void>;
};

/** `createTestRouter` behind `RPCHandler` (@orpc/server/node) on 127.0.0.1, an ephemeral port. */
export async function startCapabilityServer<TApp>(o: Parameters<typeof createTestRouter<TApp>>[0]): Promise<CapabilityServer> {
  const { router, service } = createTestRouter(o);
  const inFlight = new Set<Promise<unknown>>();
  // In-flight work is tracked around the procedure call, not around handle(): oRPC 2.0.0-beta.16's node handle()
  // never settles when the client hung up before the answer (1.x resolves), which an aborted call here does.
  const track = <T>(work: Promise<T>): Promise<T> => {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    void settled.finally(() => inFlight.delete(settled));
    return work;
  };
  const handler = new RPCHandler({ agent: router }, { interceptors: [(options) => track(options.next())] });
  const server = createServer((req, res) => {
    handler
      .handle(req, res, { prefix: "/rpc", context: { headers: req.headers } })
      .then(({ matched }) => {
        if (!matched) {
          res.statusCode = 404;
          res.end();
        }
      })
      // A client that hung up leaves nothing to answer; the outcome is the journal's, not this socket's.
      .catch(() => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
  return {
    url,
    service,
    clientFor: (actor) => createHTTPCapabilityClient({ url, headers: { "x-actor": actor.id } }),
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
