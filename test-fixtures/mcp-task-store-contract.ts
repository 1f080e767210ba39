// The MCP task store contract (issue 47): what the MCP adapter's tasks need of `options.tasks.store`. The in-memory
// default (@orpc-agent/mcp) and the PostgreSQL store (@orpc-agent/postgres) run it unchanged. It imports only vitest;
// the record mirrors MCPTaskRecord (packages/mcp/src/tasks/task-store.ts) structurally.
import { describe, expect, it } from "vitest";

export type ContractTaskRecord = {
  taskId: string;
  principal: string;
  capabilityId: string;
  approvalId?: string;
  phase: "awaiting" | "answered" | "running" | "done";
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  inputRequests?: Record<string, unknown>;
  runLeaseExpiresAt?: number;
  error?: { code: number; message: string; data?: Record<string, unknown> };
  result?: Record<string, unknown>;
  createdAt: number;
  lastUpdatedAt: number;
  expiresAt: number;
  version: number;
};

export type ContractTaskStore = {
  create(record: ContractTaskRecord): Promise<void>;
  get(principal: string, taskId: string, now: number): Promise<ContractTaskRecord | undefined>;
  update(principal: string, taskId: string, expectedVersion: number, next: ContractTaskRecord): Promise<boolean>;
};

const NOW = 1_900_000_000_000;
let counter = 0;

export function makeTaskRecord(overrides: Partial<ContractTaskRecord> = {}): ContractTaskRecord {
  counter += 1;
  return {
    taskId: `task-${counter}-${Math.random().toString(16).slice(2)}`,
    principal: "user:dana",
    capabilityId: "payments.refund",
    approvalId: `apr_${counter}`,
    phase: "awaiting",
    status: "input_required",
    statusMessage: "Awaiting the approver's decision.",
    inputRequests: { approval: { method: "elicitation/create", params: { mode: "url", url: "https://example.test/a" } } },
    createdAt: NOW,
    lastUpdatedAt: NOW,
    expiresAt: NOW + 60_000,
    version: 0,
    ...overrides,
  };
}

/** `makeStore(limits)` answers an empty store with those bounds. */
export function describeMCPTaskStoreContract(title: string, makeStore: (limits: { perPrincipal: number; total: number }) => Promise<ContractTaskStore>): void {
  const open = () => makeStore({ perPrincipal: 1_000, total: 10_000 });

  describe(`${title}: MCP task store contract`, () => {
    it("a created task reads back whole, by its principal and id", async () => {
      const store = await open();
      const record = makeTaskRecord({ result: { content: [{ type: "text", text: "ü ✓" }], structuredContent: { n: 1.5, nested: [null, true] } } });
      await store.create(record);
      expect(await store.get(record.principal, record.taskId, NOW)).toEqual(record);
    });

    it("SI-8: another principal's task id answers exactly like an unknown one", async () => {
      const store = await open();
      const record = makeTaskRecord();
      await store.create(record);
      expect(await store.get("user:mallory", record.taskId, NOW)).toBeUndefined();
      expect(await store.get(record.principal, "task-unknown", NOW)).toBeUndefined();
      expect(await store.update("user:mallory", record.taskId, 0, { ...record, principal: "user:mallory", phase: "done" })).toBe(false);
      expect(await store.get(record.principal, record.taskId, NOW)).toEqual(record);
    });

    it("an expired task reads as absent, and stays absent", async () => {
      const store = await open();
      const record = makeTaskRecord({ expiresAt: NOW + 10 });
      await store.create(record);
      expect(await store.get(record.principal, record.taskId, NOW + 9)).toEqual(record);
      expect(await store.get(record.principal, record.taskId, NOW + 10)).toBeUndefined();
      expect(await store.get(record.principal, record.taskId, NOW)).toBeUndefined();
    });

    it("update is compare-and-set on version: the stored version becomes expected + 1", async () => {
      const store = await open();
      const record = makeTaskRecord();
      await store.create(record);
      const { inputRequests: _dropped, ...rest } = record;
      const next: ContractTaskRecord = { ...rest, phase: "running", status: "working", lastUpdatedAt: NOW + 1 };
      expect(await store.update(record.principal, record.taskId, 0, next)).toBe(true);
      expect(await store.get(record.principal, record.taskId, NOW)).toEqual({ ...next, version: 1 });
      // A stale writer loses and changes nothing.
      expect(await store.update(record.principal, record.taskId, 0, { ...record, phase: "done", status: "cancelled" })).toBe(false);
      expect(await store.get(record.principal, record.taskId, NOW)).toEqual({ ...next, version: 1 });
      expect(await store.update(record.principal, "task-unknown", 0, next)).toBe(false);
    });

    it("of many concurrent claims at one version exactly one wins", async () => {
      const store = await open();
      const record = makeTaskRecord();
      await store.create(record);
      const claims = await Promise.all(
        Array.from({ length: 16 }, (_, i) => store.update(record.principal, record.taskId, 0, { ...record, phase: "running", status: "working", statusMessage: `claim ${i}` })),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      const stored = await store.get(record.principal, record.taskId, NOW);
      expect(stored).toMatchObject({ phase: "running", version: 1, statusMessage: `claim ${claims.indexOf(true)}` });
    });

    it("a running task's lease, and the failed outcome that ends it once lapsed, round-trip; of two enders exactly one wins", async () => {
      const store = await open();
      const { inputRequests: _none, ...awaiting } = makeTaskRecord();
      const running: ContractTaskRecord = { ...awaiting, phase: "running", status: "working", runLeaseExpiresAt: NOW - 1, version: 3 };
      await store.create(running);
      expect(await store.get(running.principal, running.taskId, NOW)).toEqual(running);
      const { runLeaseExpiresAt: _lapsed, ...rest } = running;
      const error = { code: -32603, message: "lease-lapsed", data: { status: "outcome-unknown", reason: "lease-lapsed", effectStatus: "unknown" } };
      const ended: ContractTaskRecord = { ...rest, phase: "done", status: "failed", error };
      const enders = await Promise.all([0, 1].map(() => store.update(running.principal, running.taskId, 3, ended)));
      expect(enders.filter(Boolean)).toHaveLength(1);
      expect(await store.get(running.principal, running.taskId, NOW)).toEqual({ ...ended, version: 4 });
    });

    it("a record read back is a copy: changing it changes nothing stored", async () => {
      const store = await open();
      const record = makeTaskRecord();
      await store.create(record);
      record.status = "completed";
      const read = (await store.get(record.principal, record.taskId, NOW))!;
      expect(read.status).toBe("input_required");
      read.status = "failed";
      expect((await store.get(record.principal, record.taskId, NOW))!.status).toBe("input_required");
    });

    it("bounded per principal: a principal's oldest task gives way, another principal's stay", async () => {
      const store = await makeStore({ perPrincipal: 3, total: 100 });
      const other = makeTaskRecord({ principal: "user:erin" });
      await store.create(other);
      const mine = [];
      for (let i = 0; i < 4; i++) {
        const record = makeTaskRecord();
        await store.create(record);
        mine.push(record);
      }
      expect(await store.get(mine[0]!.principal, mine[0]!.taskId, NOW)).toBeUndefined();
      for (const record of mine.slice(1)) expect(await store.get(record.principal, record.taskId, NOW)).toEqual(record);
      expect(await store.get(other.principal, other.taskId, NOW)).toEqual(other);
    });

    it("bounded in total: the oldest task of the largest holder gives way", async () => {
      const store = await makeStore({ perPrincipal: 100, total: 4 });
      const small = makeTaskRecord({ principal: "user:erin" });
      await store.create(small);
      const large = [];
      for (let i = 0; i < 3; i++) {
        const record = makeTaskRecord({ principal: "user:flood" });
        await store.create(record);
        large.push(record);
      }
      const extra = makeTaskRecord({ principal: "user:flood" });
      await store.create(extra);
      expect(await store.get(small.principal, small.taskId, NOW)).toEqual(small);
      expect(await store.get(large[0]!.principal, large[0]!.taskId, NOW)).toBeUndefined();
      for (const record of [...large.slice(1), extra]) expect(await store.get(record.principal, record.taskId, NOW)).toEqual(record);
    });
  });
}
