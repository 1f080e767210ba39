import { os } from "@orpc/server";
import { describe, expect, it } from "vitest";
import { agentMeta, agentProcedure, CapabilityError, createAgentRuntime, createCapabilityRegistry, defineGovernance, type AgentMeta } from "../../src/index.js";
import { dana, deferred } from "./execution-harness.js";

// Stage 11's signal may be made on first read (signal-on-demand.ts): whenever it is read, it must be what an eager
// controller would have shown.
const readMeta = (extra: Partial<AgentMeta> = {}): AgentMeta => ({ description: "A read.", expose: { direct: true }, sideEffect: "read", risk: "low", ...extra });
const runtimeWith = (defs: Parameters<typeof createCapabilityRegistry>[0]) => createAgentRuntime({ governance: defineGovernance({ registry: createCapabilityRegistry(defs) }) });

describe("the handler's signal", () => {
  it("first read after the timeout fired, it is already aborted with the TIMEOUT reason", async () => {
    const late = deferred<AbortSignal>();
    const slow = agentProcedure(os)
      .meta(agentMeta(readMeta({ timeoutMs: 10 })))
      .handler(async (options) => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        late.resolve(options.signal!);
        return "late";
      });
    const result = await runtimeWith({ slow }).invoke("slow", undefined, { actor: dana, context: {} });
    expect(result.status).toBe("cancelled");
    const signal = await late.promise;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as CapabilityError).code).toBe("TIMEOUT");
  });

  it("is one signal for every middleware and the handler, aborted by the caller's signal", async () => {
    const seen: AbortSignal[] = [];
    const entered = deferred<void>();
    const watched = agentProcedure(os)
      .use(({ next, signal }) => {
        seen.push(signal!);
        return next();
      })
      .meta(agentMeta(readMeta()))
      .handler(({ signal }) => {
        seen.push(signal!);
        entered.resolve();
        return new Promise<never>((_, reject) => signal!.addEventListener("abort", () => reject(signal!.reason)));
      });
    const controller = new AbortController();
    const pending = runtimeWith({ watched }).invoke("watched", undefined, { actor: dana, context: {}, signal: controller.signal });
    await entered.promise;
    controller.abort();
    const result = await pending;
    expect(result.status).toBe("cancelled");
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[0]!.aborted).toBe(true);
    expect((seen[0]!.reason as CapabilityError).code).toBe("CANCELLED");
  });

  it("travels with the options when a handler spreads them", async () => {
    const spread = agentProcedure(os)
      .meta(agentMeta(readMeta()))
      .handler((options) => {
        const copy = { ...options };
        return { isSignal: copy.signal instanceof AbortSignal, aborted: copy.signal?.aborted };
      });
    const result = await runtimeWith({ spread }).invoke("spread", undefined, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { isSignal: true, aborted: false } });
  });

  it("leaves the path the handler sees a plain frozen copy: no symbol, no extra key", async () => {
    const peek = agentProcedure(os)
      .meta(agentMeta(readMeta()))
      .handler(({ path }) => ({
        path: [...path],
        keys: Reflect.ownKeys(path).map(String),
        frozen: Object.isFrozen(path),
        proto: Object.getPrototypeOf(path) === Array.prototype,
      }));
    const result = await runtimeWith({ peek }).invoke("peek", undefined, { actor: dana, context: {} });
    expect(result).toMatchObject({ status: "completed", output: { path: ["peek"], keys: ["0", "length"], frozen: true, proto: true } });
  });
});
