// Raised from the mutation run: with no audit sink the runtime builds no audit event at all (docs/architecture/spec/core.md#core-16, "with no
// sinks, build none"). Building one reads the injected `now` for its timestamp, so the clock reads show it: with no
// sink, `now` is read only where the call itself needs a time (an approval's requestedAt and expiry check): not even
// for the execution's start, which only events and their durations read.
import { describe, expect, it } from "vitest";
import { captureStartupWarnings } from "../../support/startup-warnings.js";
import { base, build, counted, dana, meta, priya } from "../../runtime/pipeline-harness.js";
import { agentMeta } from "@orpc-agent/core";

// The startup warnings these tests provoke on purpose (docs/architecture/spec/core.md#core-5), captured and asserted.
captureStartupWarnings(["W3"]);

/** A `now` that records, for each read, the phase the test says the call is in. */
function phasedClock() {
  const state = { phase: "before", reads: [] as string[] };
  const now = () => {
    state.reads.push(state.phase);
    return new Date(Date.UTC(2030, 0, 1));
  };
  return { state, now };
}

describe("no audit sink: no event is built", () => {
  it("describe never reads the clock", async () => {
    const clock = phasedClock();
    const { runtime } = build({ defs: { a: base.meta(agentMeta(meta())).handler(() => "ok") }, audit: [], now: clock.now });
    expect((await runtime.describe("aiSdk", { actor: dana, context: {} })).map((d) => d.id)).toEqual(["a"]);
    expect(clock.state.reads).toEqual([]);
  });

  it("invoke never reads the clock, neither for its start nor on the way into the procedure", async () => {
    const clock = phasedClock();
    const proc = base.meta(agentMeta(meta())).handler(() => {
      clock.state.phase = "after";
      return "ok";
    });
    const { runtime } = build({ defs: { a: proc }, audit: [], now: clock.now });
    expect(await runtime.invoke("a", undefined, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    expect(clock.state.reads).toEqual([]);
  });

  it("a denied call does not read it either; with a sink, both read it for their start and their terminal event", async () => {
    for (const id of ["a", "missing"]) {
      const silent = phasedClock();
      await build({ defs: { a: counted().procedure }, audit: [], now: silent.now }).runtime.invoke(id, undefined, { actor: dana, context: {} });
      expect(silent.state.reads, id).toHaveLength(0);

      const heard = phasedClock();
      const { runtime, events } = build({ defs: { a: counted().procedure }, now: heard.now });
      await runtime.invoke(id, undefined, { actor: dana, context: {} });
      expect(events.at(-1)!.type).toBe(id === "a" ? "capability.completed" : "capability.denied");
      // A completed call also stamps `capability.started`.
      expect(heard.state.reads.length, id).toBe(id === "a" ? 3 : 2);
    }
  });

  it("an inline approval reads the clock for requestedAt and the expiry check only", async () => {
    const clock = phasedClock();
    const proc = base.meta(agentMeta(meta({ sideEffect: "write", approval: { required: true } }))).handler(() => {
      clock.state.phase = "after";
      return "ok";
    });
    const { runtime } = build({
      defs: { pay: proc },
      audit: [],
      now: clock.now,
      approvals: {
        handler: async () => {
          clock.state.phase = "decided";
          return { status: "approved", approver: priya };
        },
      },
    });
    expect(await runtime.invoke("pay", { amount: 5 }, { actor: dana, context: {} })).toMatchObject({ status: "completed" });
    // requestedAt before the handler, the expiry check after it.
    expect(clock.state.reads).toEqual(["before", "decided"]);
  });
});
