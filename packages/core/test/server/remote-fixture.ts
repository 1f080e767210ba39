// A small shop behind a real loopback HTTP server, shared by the core/server and core/http tests.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { os } from "@orpc/server";
import { RPCHandler } from "@orpc/server/node";
import { z } from "zod";
import {
  agentMeta,
  agentProcedure,
  createAgentRuntime,
  createCapabilityRegistry,
  createInMemoryApprovalCoordinator,
  defineGovernance,
  type Actor,
  type AgentAuditEvent,
  type AgentPolicy,
  type AgentRuntime,
  type ApprovalCoordinator,
  type CapabilityRegistry,
} from "../../src/index.js";
import { createHTTPCapabilityClient, type HTTPCapabilityClientOptions } from "../../src/http/index.js";
import {
  createCapabilityRouter,
  createInMemoryInvocationJournal,
  createInvocationService,
  type CapabilityRouter,
  type CapabilityRouterOptions,
  type InvocationEvent,
  type InvocationJournal,
  type InvocationService,
  type InvocationServiceOptions,
} from "../../src/server/index.js";

export const dana: Actor = Object.freeze({ id: "u_dana", kind: "user", attributes: { roles: ["refunds"] } });
export const priya: Actor = Object.freeze({ id: "u_priya", kind: "user" });
export const mallory: Actor = Object.freeze({ id: "u_mallory", kind: "user" });

export type Latch = { promise: Promise<void>; release(): void };
export function latch(): Latch {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  return { promise, release };
}

/** A clock tests move by hand; `now()` returns a fresh Date each call. */
export function manualClock(start = Date.now()) {
  let current = start;
  return { now: () => new Date(current), advance: (ms: number) => void (current += ms) };
}

/** Counts effects and lets a test hold a handler inside its effect. */
export function createEffects() {
  const counts = new Map<string, number>();
  const keys: { capabilityId: string; idempotencyKey: string; correlationId?: string; input: unknown }[] = [];
  let gate: Latch | undefined;
  let entered: Latch = latch();
  return {
    count: (id: string) => counts.get(id) ?? 0,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    keys,
    record(id: string, info: { idempotencyKey: string; correlationId?: string; input: unknown }) {
      counts.set(id, (counts.get(id) ?? 0) + 1);
      keys.push({ capabilityId: id, ...info });
    },
    /** Make the next gated handlers wait inside their effect until `release()`. */
    hold(): Latch {
      gate = latch();
      entered = latch();
      return gate;
    },
    /** Resolves once a gated handler is inside its effect. */
    entered: () => entered.promise,
    async pass() {
      entered.release();
      if (gate) await gate.promise;
    },
  };
}
export type Effects = ReturnType<typeof createEffects>;

const base = agentProcedure(os);
const everywhere = { aiSdk: true, mcp: true, workflow: true, direct: true } as const;

/** The shop's capabilities. Handlers record their effect with the key the runtime gave them. */
export function shopDefs(effects: Effects) {
  const note = (id: string, context: { agent?: { idempotencyKey: string; correlationId?: string } }, input: unknown) =>
    effects.record(id, { idempotencyKey: context.agent!.idempotencyKey, correlationId: context.agent!.correlationId, input });
  return {
    notes: {
      read: base
        .input(z.object({ id: z.string() }))
        .meta(agentMeta({ description: "Read a note.", expose: everywhere, sideEffect: "read", risk: "low", tags: ["notes"] }))
        .handler(async ({ input, context }) => {
          note("notes.read", context, input);
          return { id: input.id, at: new Date("2030-01-02T03:04:05.000Z"), labels: new Map([["a", 1]]) };
        }),
      slowRead: base
        .input(z.object({ id: z.string() }))
        .meta(agentMeta({ description: "Read slowly.", expose: everywhere, sideEffect: "read", risk: "low", timeoutMs: 5_000 }))
        .handler(async ({ input, context, signal }) => {
          note("notes.slowRead", context, input);
          await effects.pass();
          return { id: input.id, aborted: signal?.aborted === true };
        }),
    },
    orders: {
      refund: base
        .input(z.object({ orderId: z.string(), cents: z.number().int().positive() }))
        .meta(agentMeta({ description: "Refund an order.", expose: everywhere, sideEffect: "write", risk: "high", tags: ["orders"] }))
        .handler(async ({ input, context }) => {
          note("orders.refund", context, input);
          await effects.pass();
          return { refunded: input.cents, orderId: input.orderId };
        }),
      gatedRefund: base
        .input(z.object({ orderId: z.string(), cents: z.number() }))
        .meta(agentMeta({
          description: "Refund with approval.",
          expose: everywhere,
          sideEffect: "write",
          risk: "high",
          approval: { required: true, type: "manager" },
        }))
        .handler(async ({ input, context }) => {
          note("orders.gatedRefund", context, input);
          return { refunded: input.cents };
        }),
      stuckWrite: base
        .input(z.object({ orderId: z.string() }))
        .meta(agentMeta({ description: "A write ignoring its signal.", expose: everywhere, sideEffect: "write", risk: "medium", timeoutMs: 30 }))
        .handler(async ({ input, context }) => {
          note("orders.stuckWrite", context, input);
          await new Promise((r) => setTimeout(r, 80));
          return { done: true };
        }),
      stuckRead: base
        .input(z.object({ orderId: z.string() }))
        .meta(agentMeta({ description: "A read ignoring its signal.", expose: everywhere, sideEffect: "read", risk: "low", timeoutMs: 30 }))
        .handler(async ({ input, context }) => {
          note("orders.stuckRead", context, input);
          await new Promise((r) => setTimeout(r, 80));
          return { done: true };
        }),
      big: base
        .input(z.object({ size: z.number() }))
        .meta(agentMeta({ description: "A large answer.", expose: everywhere, sideEffect: "read", risk: "low" }))
        .handler(({ input }) => ({ blob: "x".repeat(input.size) })),
      boom: base
        .input(z.object({}))
        .meta(agentMeta({ description: "Throws an internal error.", expose: everywhere, sideEffect: "write", risk: "low" }))
        .handler(() => {
          throw new Error("secret internal detail: users_table");
        }),
    },
    ui: {
      archive: base
        .input(z.object({ recordId: z.string() }))
        .meta(agentMeta({ description: "Archive the record on screen.", expose: everywhere, sideEffect: "write", risk: "low", discovery: "contextual" }))
        .handler(({ input, context }) => {
          note("ui.archive", context, input);
          return { archived: input.recordId };
        }),
    },
    admin: {
      purge: base
        .input(z.object({}))
        .meta(agentMeta({ description: "Purge everything.", expose: {}, sideEffect: "destructive", risk: "critical" }))
        .handler(() => ({ purged: true })),
    },
  };
}

export type ShopOptions = {
  policies?: AgentPolicy[];
  registry?: CapabilityRegistry;
  coordinator?: ApprovalCoordinator;
  service?: Partial<InvocationServiceOptions>;
  router?: Partial<CapabilityRouterOptions<RequestContext, AppContext>>;
  audit?: (e: AgentAuditEvent) => void | Promise<void>;
};

export type RequestContext = { headers: IncomingMessage["headers"]; req?: IncomingMessage };
export type AppContext = { tenant: string };

/** The application side without a server: registry, runtime factory, journal and service. */
export function createShopApp(o: ShopOptions = {}) {
  const effects = createEffects();
  const registry = o.registry ?? createCapabilityRegistry(shopDefs(effects));
  const governance = defineGovernance({ registry, policies: o.policies ?? [] });
  const coordinator: ApprovalCoordinator = o.coordinator ?? createInMemoryApprovalCoordinator();
  const clock = manualClock();
  const journal: InvocationJournal = o.service?.journal ?? createInMemoryInvocationJournal({ now: clock.now });
  const events: InvocationEvent[] = [];
  const audit: AgentAuditEvent[] = [];
  const service: InvocationService = createInvocationService({
    journal,
    namespace: "shop",
    revision: "r1",
    onEvent: (e) => void events.push(e),
    now: clock.now,
    ...o.service,
  });
  let runtimes = 0;
  const makeRuntime = (): AgentRuntime<AppContext> => {
    runtimes++;
    return createAgentRuntime<AppContext>({
      governance,
      approvals: { coordinator },
      audit: async (e) => {
        audit.push(e);
        await o.audit?.(e);
      },
    });
  };
  return { effects, registry, governance, coordinator, clock, journal, service, events, audit, makeRuntime, runtimeCount: () => runtimes };
}
export type ShopApp = ReturnType<typeof createShopApp>;

/** The request authenticator the shop uses: `x-actor` and `x-roles` headers, else unauthenticated. */
export const resolveFromHeaders: CapabilityRouterOptions<RequestContext, AppContext>["resolve"] = async ({ context }) => {
  const id = context.headers["x-actor"];
  if (typeof id !== "string") return null;
  const roles = context.headers["x-roles"];
  return { actor: { id, kind: "user", attributes: { roles: typeof roles === "string" && roles ? roles.split(",") : [] } }, context: { tenant: "t1" } };
};

export const allowAll = { describe: () => true, invoke: () => true, resume: () => true, reconcile: () => true };

/** Everything a remote test needs: the app, a router on a real loopback HTTP server, and a client factory. */
export async function startShop(o: ShopOptions = {}) {
  const app = createShopApp(o);
  // The non-durable warning is asserted where it matters (router tests); silence it here.
  const warn = console.warn;
  console.warn = () => {};
  let router: CapabilityRouter<RequestContext>;
  try {
    router = createCapabilityRouter<RequestContext, AppContext>({
      service: app.service,
      runtime: () => app.makeRuntime(),
      surface: "aiSdk",
      resolve: resolveFromHeaders,
      authorize: allowAll,
      ...o.router,
    });
  } finally {
    console.warn = warn;
  }
  const handler = new RPCHandler({ agent: router });
  const server: Server = createServer((req, res) => {
    void handler.handle(req, res, { prefix: "/rpc", context: { headers: req.headers, req } }).then(({ matched }) => {
      if (!matched) {
        res.statusCode = 404;
        res.end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
  const client = (actor: Actor | null = dana, extra: Partial<HTTPCapabilityClientOptions> = {}) =>
    createHTTPCapabilityClient({ url, headers: actor === null ? {} : { "x-actor": actor.id, "x-roles": roles(actor) }, ...extra });
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return { ...app, router, url, server, client, close };
}
export type Shop = Awaited<ReturnType<typeof startShop>>;

function roles(actor: Actor): string {
  const r = (actor.attributes?.roles as string[] | undefined) ?? [];
  return r.join(",");
}

/** A fresh invocation id: ≥ 128 random bits, as docs/architecture/spec/distributed.md#distributed-4 asks of allocators. */
export const newInvocationId = (): string => `inv-${crypto.randomUUID()}`;
