// SI-12 for streaming capabilities (issue 46): a stream's terminal audit event counts its events, however it ends.
// The path attacked: a read stream cut off by its idle bound before its first event waits to be retried, and the
// caller aborts during that wait. The call ends cancelled with one terminal event, and that event still says how
// many events were delivered (none), as every other ending of a stream does.
import { eventIterator } from "@orpc/server";
import type { AgentAuditEvent } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { base, build, dana, meta } from "./support/runtime.js";

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("SI-12: a stream cancelled while it waits to be retried", () => {
  it("SI-12: ends cancelled, its one terminal event counting 0 events, and nothing is delivered", async () => {
    const never = deferred();
    const retried = deferred();
    const feed = base
      .output(eventIterator(z.object({ n: z.number() })))
      .meta({ agent: meta({ sideEffect: "read", risk: "low", retry: { maxAttempts: 2, backoffMs: 60_000 }, stream: { idleTimeoutMs: 20 } }) })
      .handler(async function* () {
        await never.promise;
        yield { n: 1 };
      });
    const events: AgentAuditEvent[] = [];
    const { runtime } = build({
      defs: { feed },
      audit: (event: AgentAuditEvent) => {
        events.push(event);
        if (event.type === "capability.retried") retried.resolve();
      },
    });
    const controller = new AbortController();
    const got: unknown[] = [];
    const pending = runtime.invoke("feed", {}, { actor: dana, context: {}, signal: controller.signal, onEvent: (e) => void got.push(e) });
    await retried.promise;
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ status: "cancelled", error: { code: "CANCELLED" } });
    expect(got).toEqual([]);
    const terminal = events.filter((e) => e.executionId === result.executionId && ["capability.completed", "capability.failed", "capability.cancelled"].includes(e.type));
    expect(terminal).toHaveLength(1);
    expect(terminal[0]).toMatchObject({ type: "capability.cancelled", data: { code: "CANCELLED", events: 0 } });
  });
});
