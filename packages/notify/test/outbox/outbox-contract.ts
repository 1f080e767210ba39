// What every WebhookOutbox must do, run against the in-memory one and the PostgreSQL one.
import { describe, expect, it } from "vitest";
import type { WebhookOutbox } from "../../src/index.js";

const A = "https://a.example/hook";
const B = "https://b.example/hook";
const T0 = new Date("2030-01-01T00:00:00Z");
const later = (ms: number) => new Date(T0.getTime() + ms);
const message = (id: string, createdAt = T0) => ({ id, type: "approval.requested", body: `{"id":"${id}"}`, createdAt });

export function describeOutboxContract(name: string, fresh: () => Promise<WebhookOutbox>): void {
  describe(`${name}: the outbox contract`, () => {
    it("a claim is exclusive until its lease ends, and a stale claim cannot settle", async () => {
      const store = await fresh();
      await store.enqueue(A, message("m1"));

      const [held] = await store.claim(A, { now: T0, limit: 10, leaseMs: 1_000 });
      expect(held).toMatchObject({ id: "m1", endpoint: A, attempts: 1, body: '{"id":"m1"}' });
      expect(await store.claim(A, { now: later(999), limit: 10, leaseMs: 1_000 })).toEqual([]);
      expect(await store.nextDueAt(A)).toEqual(later(1_000));

      // The lease ran out (the first drainer hung): another claims, and the first one's late outcome changes nothing.
      const [again] = await store.claim(A, { now: later(1_000), limit: 10, leaseMs: 1_000 });
      expect(again).toMatchObject({ id: "m1", attempts: 2 });
      expect(await store.settle(held!, { kind: "failed", at: T0, error: "late" })).toBe(false);
      expect(await store.settle(again!, { kind: "delivered", at: later(1_001), status: 200 })).toBe(true);
      expect(await store.get(A, "m1")).toMatchObject({ status: "delivered", attempts: 2, deliveredAt: later(1_001) });
      expect(await store.settle(again!, { kind: "failed", at: T0, error: "twice" })).toBe(false);
      expect(await store.nextDueAt(A)).toBeNull();
    });

    it("a retry is due at its instant, not before; dueBy leaves later ones for the next drain", async () => {
      const store = await fresh();
      await store.enqueue(A, message("m1"));
      const [claimed] = await store.claim(A, { now: T0, limit: 10, leaseMs: 1_000 });
      expect(await store.settle(claimed!, { kind: "retry", at: T0, nextAttemptAt: later(500), status: 503, error: "HTTP 503" })).toBe(true);
      expect(await store.get(A, "m1")).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: later(500), lastStatus: 503, lastError: "HTTP 503" });
      expect(await store.nextDueAt(A)).toEqual(later(500));
      expect(await store.claim(A, { now: later(499), limit: 10, leaseMs: 1_000 })).toEqual([]);
      expect(await store.claim(A, { now: later(600), dueBy: later(499), limit: 10, leaseMs: 1_000 })).toEqual([]);
      expect(await store.claim(A, { now: later(500), limit: 10, leaseMs: 1_000 })).toMatchObject([{ id: "m1", attempts: 2 }]);
    });

    it("claims take the oldest due first, up to the limit, and only the endpoint's own", async () => {
      const store = await fresh();
      for (let i = 0; i < 5; i++) await store.enqueue(A, message(`a${i}`, later(i)));
      await store.enqueue(B, message("b0"));
      const first = await store.claim(A, { now: later(10), limit: 3, leaseMs: 1_000 });
      expect(first.map((m) => m.id)).toEqual(["a0", "a1", "a2"]);
      const rest = await store.claim(A, { now: later(10), limit: 3, leaseMs: 1_000 });
      expect(rest.map((m) => m.id)).toEqual(["a3", "a4"]);
      expect((await store.claim(B, { now: later(10), limit: 3, leaseMs: 1_000 })).map((m) => m.id)).toEqual(["b0"]);
    });

    it("enqueueing an id twice for one endpoint adds one row; another endpoint has its own", async () => {
      const store = await fresh();
      expect(await store.enqueue(A, message("apr_1.requested"))).toBe(true);
      expect(await store.enqueue(A, { ...message("apr_1.requested"), body: "{}" })).toBe(false);
      expect(await store.enqueue(B, message("apr_1.requested"))).toBe(true);
      expect((await store.list()).map((row) => [row.endpoint, row.id, row.body])).toEqual([
        [A, "apr_1.requested", '{"id":"apr_1.requested"}'],
        [B, "apr_1.requested", '{"id":"apr_1.requested"}'],
      ]);
    });

    it("failed messages stay listed, with the last status and error; list filters by endpoint and status", async () => {
      const store = await fresh();
      await store.enqueue(A, message("m1"));
      await store.enqueue(A, message("m2", later(1)));
      await store.enqueue(B, message("m3", later(2)));
      const [m1] = await store.claim(A, { now: later(5), limit: 1, leaseMs: 1_000 });
      await store.settle(m1!, { kind: "failed", at: later(6), status: 410, error: "HTTP 410" });
      expect(await store.list({ status: "failed" })).toMatchObject([{ id: "m1", endpoint: A, status: "failed", attempts: 1, lastStatus: 410, lastError: "HTTP 410" }]);
      expect((await store.list({ endpoint: A })).map((row) => row.id)).toEqual(["m1", "m2"]);
      expect((await store.list({ status: "pending", limit: 1 })).map((row) => row.id)).toEqual(["m2"]);
      expect(await store.get(A, "nope")).toBeNull();
    });
  });
}
