import { describe, expect, it } from "vitest";
import { dueNotices } from "../../src/approvals/notify/due-notices.js";

const MIN = 60_000;
const requestedAt = new Date("2031-01-01T00:00:00.000Z");
const record = { requestedAt, expiresAt: new Date(requestedAt.getTime() + 60 * MIN) };
const steps = [
  { afterMs: 15 * MIN, to: ["lead"] },
  { afterMs: 30 * MIN, to: ["head"] },
  { afterMs: 90 * MIN, to: ["never"] },
];
const at = (minutes: number) => new Date(requestedAt.getTime() + minutes * MIN);
const keys = (minutes: number, warning: number | false = 10 * MIN) => dueNotices(record, steps, warning, at(minutes)).map((n) => n.key);

describe("dueNotices", () => {
  it("a step falls due at requestedAt + afterMs, the warning at expiresAt - warningMs, in that order", () => {
    expect(keys(14.999)).toEqual([]);
    expect(keys(15)).toEqual([`escalate:${15 * MIN}`]);
    expect(keys(30)).toEqual([`escalate:${15 * MIN}`, `escalate:${30 * MIN}`]);
    expect(keys(50)).toEqual([`escalate:${15 * MIN}`, `escalate:${30 * MIN}`, "expiring"]);
  });

  it("nothing once expired (strict: at expiresAt still due); a step after expiry never falls due", () => {
    expect(keys(60)).toEqual([`escalate:${15 * MIN}`, `escalate:${30 * MIN}`, "expiring"]);
    expect(dueNotices(record, steps, 10 * MIN, new Date(record.expiresAt.getTime() + 1))).toEqual([]);
  });

  it("the notice carries the step's index, afterMs and to; the warning how long is left", () => {
    expect(dueNotices(record, steps, 10 * MIN, at(55))).toEqual([
      { kind: "escalated", key: `escalate:${15 * MIN}`, step: 0, afterMs: 15 * MIN, to: ["lead"] },
      { kind: "escalated", key: `escalate:${30 * MIN}`, step: 1, afterMs: 30 * MIN, to: ["head"] },
      { kind: "expiring", key: "expiring", expiresInMs: 5 * MIN },
    ]);
  });

  it("no warning when disabled, or when the whole lifetime is shorter than the warning", () => {
    expect(keys(55, false)).toEqual([`escalate:${15 * MIN}`, `escalate:${30 * MIN}`]);
    expect(keys(1, 60 * MIN)).toEqual([]);
    expect(keys(59, 2 * 60 * MIN)).toEqual([`escalate:${15 * MIN}`, `escalate:${30 * MIN}`]);
  });

  it("no escalation declared: only the warning", () => {
    expect(dueNotices(record, undefined, 10 * MIN, at(55)).map((n) => n.key)).toEqual(["expiring"]);
  });
});
