import { ORPCError, os, type Context } from "@orpc/server";
import { isWellFormedActor, isWriteLike, type Actor } from "../../vocabulary/types.js";
import type { RemoteOperation } from "../../client/types.js";
import { CapabilityError } from "../../errors/capability-error.js";
import type { CapabilityRegistry } from "../../registry/types.js";
import type { AgentRuntime } from "../../runtime/types.js";
import { assertNoToolNameCollisions } from "../descriptors/tool-names.js";
import { serviceToolNaming } from "../service/state.js";
import { assertRouterOptions } from "./router-options.js";
import {
  describeRequestSchema,
  invokeRequestSchema,
  invokeStreamRequestSchema,
  reconcileRequestSchema,
  resumeRequestSchema,
  resumeStreamRequestSchema,
} from "./request-schemas.js";
import { streamFrames } from "./stream-frames.js";
import type { InvokeRequest, ResumeRequest } from "../../client/types.js";
import type { StreamHooks } from "../service/types.js";
import type { Auth, CapabilityRouter, CapabilityRouterOptions } from "./types.js";

/**
 * The remote capability procedures (docs/architecture/spec/distributed.md#distributed-3-2), plus `invokeStream` and `resumeStream`, which
 * answer `invoke` and `resume` over oRPC's event-iterator transport. Each one: strict input validation → `resolve` →
 * `authorize[op]` → runtime → service. Actor, context, namespace, surface and revision are fixed here,
 * never read from a body (D-1); refusals precede the service, so nothing is journaled, run or audited.
 *
 * @example
 * import type { AnyProcedure } from "@orpc/server";
 * import { RPCHandler } from "@orpc/server/fetch";
 * import { createCapabilityRouter, type CapabilityRouterOptions, type InvocationService } from "@orpc-agent/core/server";
 * declare type Options = CapabilityRouterOptions<{ headers: Headers }, { tenant: string }>;
 * declare const appRouter: Record<string, AnyProcedure>; // the application's own procedures
 * declare const service: InvocationService, makeRuntime: Options["runtime"];
 * declare const resolve: Options["resolve"], authorize: Options["authorize"];
 * const handler = new RPCHandler({ ...appRouter, agent: createCapabilityRouter({ service, runtime: makeRuntime, surface: "aiSdk", resolve, authorize }) });
 */
export function createCapabilityRouter<TReq extends Context, TApp>(o: CapabilityRouterOptions<TReq, TApp>): CapabilityRouter<TReq> {
  assertRouterOptions(o);
  const { service, surface } = o;
  const toolNaming = serviceToolNaming.get(service);
  const abortOnDisconnect = o.abortOnDisconnect ?? "reads";
  const drain = o.drainAudit === undefined ? false : o.drainAudit;
  const checkedRegistries = new WeakSet<CapabilityRegistry>();
  const checkNaming = (registry: CapabilityRegistry) => {
    if (toolNaming === undefined || checkedRegistries.has(registry)) return;
    assertNoToolNameCollisions(registry, toolNaming);
    checkedRegistries.add(registry);
  };
  // A value runtime is known now, so its collisions fail construction; a factory's on the first request per registry.
  if (typeof o.runtime !== "function") checkNaming(o.runtime.registry);
  if (!service.durable) {
    console.warn(
      "[orpc-agent] createCapabilityRouter: the invocation journal is not durable; claims and outcomes are lost on restart. " +
        "Use a durable journal (e.g. createPgInvocationJournal from @orpc-agent/postgres) in production.",
    );
  }

  /** Authenticate, then the operation's explicit authorization: 401 and 403 precede everything else. */
  async function admit(context: TReq, operation: RemoteOperation, signal: AbortSignal | undefined): Promise<Auth<TApp>> {
    let resolved: { actor: Actor; context: TApp } | null;
    try {
      resolved = await o.resolve({ context, operation, signal: abortOnDisconnect === "none" ? undefined : signal });
    } catch {
      resolved = null;
    }
    if (resolved === null || typeof resolved !== "object" || !isWellFormedActor(resolved.actor)) throw new ORPCError("UNAUTHORIZED");
    return { actor: resolved.actor, context: resolved.context, surface, namespace: service.namespace };
  }

  async function authorize(decide: () => boolean | Promise<boolean>): Promise<void> {
    let allowed = false;
    try {
      allowed = (await decide()) === true;
    } catch {
      allowed = false;
    }
    if (!allowed) throw new ORPCError("FORBIDDEN");
  }

  async function runtimeFor(context: TReq, actor: Actor): Promise<AgentRuntime<TApp>> {
    const rt = typeof o.runtime === "function" ? await o.runtime({ context, actor }) : o.runtime;
    checkNaming(rt.registry);
    return rt;
  }

  /** Drain after the service returned, before responding; a drain failure is an evidence problem, never an outcome (docs/architecture/spec/distributed.md#distributed-7). */
  async function drained<T>(rt: AgentRuntime<TApp>, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } finally {
      if (drain !== false) {
        await rt.drainAudit({ timeoutMs: drain.timeoutMs }).catch((error: unknown) => {
          console.error("[orpc-agent] capability router: drainAudit failed; the result is unchanged.", error);
        });
      }
    }
  }

  /** Reads follow the connection; writes run to their own timeout and settle, so reconcile finds an outcome. */
  const forwardsFor = (registry: CapabilityRegistry, capabilityId: string | undefined): boolean => {
    if (abortOnDisconnect === "all") return true;
    if (abortOnDisconnect === "none" || capabilityId === undefined) return false;
    const sideEffect = registry.get(capabilityId)?.meta.sideEffect;
    return sideEffect !== undefined && !isWriteLike(sideEffect);
  };

  const capabilityOf = (invocationId: string): Promise<string | undefined> =>
    service.get(invocationId).then(
      (record) => record?.capabilityId,
      () => undefined,
    );

  const base = os.$context<TReq>();

  const describe = base.input(describeRequestSchema).handler(async ({ input, context, signal }) => {
    const auth = await admit(context, "describe", signal);
    await authorize(() => o.authorize.describe({ ...auth, request: input }));
    const rt = await runtimeFor(context, auth.actor);
    return drained(rt, async () => {
      try {
        return await service.describe(rt, { actor: auth.actor, context: auth.context, surface, scope: input.scope });
      } catch (error) {
        if (error instanceof CapabilityError && error.code === "TIMEOUT") {
          // SERVICE_UNAVAILABLE is 503 on both majors: oRPC 2 ignores `status` and derives it from the code (TIMEOUT is 408).
          throw new ORPCError("SERVICE_UNAVAILABLE", { status: 503, message: "The discovery budget expired.", data: { code: "TIMEOUT" } });
        }
        throw error;
      }
    });
  });

  /**
   * Admission, authorization and the runtime, before anything is sent back (so refusals keep their HTTP status on the
   * streaming procedures too); then `run` calls the service, with the hooks a stream hands it.
   */
  async function admitInvoke(input: InvokeRequest, context: TReq, signal: AbortSignal | undefined) {
    const auth = await admit(context, "invoke", signal);
    await authorize(() => o.authorize.invoke({ ...auth, capabilityId: input.capabilityId, invocationId: input.invocationId }));
    const rt = await runtimeFor(context, auth.actor);
    const forwards = forwardsFor(rt.registry, input.capabilityId);
    const run = (hooks: StreamHooks) =>
      drained(rt, () =>
        service.invoke(rt, input.capabilityId, input.input, {
          actor: auth.actor,
          context: auth.context,
          surface,
          invocationId: input.invocationId,
          correlationId: input.correlationId,
          expectedDigest: input.expectedDigest,
          signal: forwards ? signal : undefined,
          ...hooks,
        }),
      );
    return { forwards, run };
  }

  async function admitResume(input: ResumeRequest, context: TReq, signal: AbortSignal | undefined) {
    const auth = await admit(context, "resume", signal);
    await authorize(() => o.authorize.resume({ ...auth, invocationId: input.invocationId, approvalId: input.approvalId }));
    const rt = await runtimeFor(context, auth.actor);
    // Which capability a resume runs is known only from the journal row; read it when the answer matters.
    const capabilityId = abortOnDisconnect === "reads" ? await capabilityOf(input.invocationId) : undefined;
    const forwards = forwardsFor(rt.registry, capabilityId);
    const run = (hooks: StreamHooks) =>
      drained(rt, () =>
        service.resume(rt, input.approvalId, {
          actor: auth.actor,
          context: auth.context,
          surface,
          invocationId: input.invocationId,
          signal: forwards ? signal : undefined,
          ...hooks,
        }),
      );
    return { forwards, run };
  }

  const invoke = base.input(invokeRequestSchema).handler(async ({ input, context, signal }) => (await admitInvoke(input, context, signal)).run({}));

  const resume = base.input(resumeRequestSchema).handler(async ({ input, context, signal }) => (await admitResume(input, context, signal)).run({}));

  // The streaming twins: the same admission and service call, answered over oRPC's event-iterator transport. The
  // journal records the terminal outcome only; a replay of a settled id returns it with no frames.
  const invokeStream = base.input(invokeStreamRequestSchema).handler(async ({ input, context, signal }) => {
    const { events, progress, ...request } = input;
    const call = await admitInvoke(request, context, signal);
    return streamFrames(call.run, { events: events === true, progress: progress === true, cancelOnDetach: call.forwards });
  });

  const resumeStream = base.input(resumeStreamRequestSchema).handler(async ({ input, context, signal }) => {
    const { events, progress, ...request } = input;
    const call = await admitResume(request, context, signal);
    return streamFrames(call.run, { events: events === true, progress: progress === true, cancelOnDetach: call.forwards });
  });

  const reconcile = base.input(reconcileRequestSchema).handler(async ({ input, context, signal }) => {
    const auth = await admit(context, "reconcile", signal);
    await authorize(() => o.authorize.reconcile({ ...auth, invocationId: input.invocationId }));
    // A read of the journal only: no runtime is needed, so none is built.
    return service.reconcile(input.invocationId, { actor: auth.actor, surface });
  });

  return { describe, invoke, resume, reconcile, invokeStream, resumeStream } as unknown as CapabilityRouter<TReq>;
}
