import type { Context } from "@orpc/server";
import type { CapabilityRouterOptions } from "./types.js";

const OPERATIONS = ["describe", "invoke", "resume", "reconcile"] as const;

/** Construction-time `TypeError`s (docs/architecture/spec/distributed.md#distributed-3-2, docs/architecture/spec/distributed.md#distributed-10 S2): every callback explicit, the surface a network one. */
export function assertRouterOptions<TReq extends Context, TApp>(o: CapabilityRouterOptions<TReq, TApp>): void {
  const example = "createCapabilityRouter({ service, runtime, surface, resolve, authorize: { describe, invoke, resume, reconcile } })";
  if (typeof o !== "object" || o === null) throw new TypeError(`createCapabilityRouter needs options: ${example}.`);
  const service = o.service as unknown as Partial<Record<string, unknown>> | undefined;
  if (typeof service !== "object" || service === null || ["describe", "invoke", "resume", "reconcile"].some((m) => typeof service[m] !== "function")) {
    throw new TypeError("createCapabilityRouter: service must come from createInvocationService(...).");
  }
  const runtime = o.runtime as unknown;
  const isRuntime = typeof runtime === "object" && runtime !== null && typeof (runtime as { invoke?: unknown }).invoke === "function";
  if (typeof runtime !== "function" && !isRuntime) {
    throw new TypeError("createCapabilityRouter: runtime must be an AgentRuntime or a factory ({ context, actor }) => AgentRuntime.");
  }
  if (o.surface !== "aiSdk" && o.surface !== "mcp" && o.surface !== "workflow") {
    throw new TypeError(
      `createCapabilityRouter: surface must be "aiSdk", "mcp" or "workflow", got ${JSON.stringify(o.surface)}; ` +
        '"direct" is in-process code and "test" belongs to the testing package.',
    );
  }
  if (typeof o.resolve !== "function") throw new TypeError("createCapabilityRouter: resolve must be a function authenticating the request.");
  if (typeof o.authorize !== "object" || o.authorize === null) {
    throw new TypeError("createCapabilityRouter: authorize must be { describe, invoke, resume, reconcile }, one explicit callback per operation.");
  }
  for (const op of OPERATIONS) {
    if (typeof o.authorize[op] !== "function") throw new TypeError(`createCapabilityRouter: authorize.${op} must be a function; every operation needs an explicit decision.`);
  }
  if (o.abortOnDisconnect !== undefined && !["reads", "all", "none"].includes(o.abortOnDisconnect)) {
    throw new TypeError('createCapabilityRouter: abortOnDisconnect must be "reads", "all" or "none".');
  }
  const drain = o.drainAudit as unknown;
  if (drain !== undefined && drain !== false) {
    const timeoutMs = (drain as { timeoutMs?: unknown } | null)?.timeoutMs;
    if (typeof drain !== "object" || !(typeof timeoutMs === "number" && Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new TypeError("createCapabilityRouter: drainAudit must be false or { timeoutMs: number > 0 }.");
    }
  }
}
