// The two approval stores the SI-4 decide tests run on: core's in-memory coordinator and the PostgreSQL coordinator
// on the real server (a private schema per test file). Each shares a settable clock with the runtime, and can edit a
// stored request the way an attacker with write access to the store would, so its seal no longer verifies.
import { createInMemoryApprovalCoordinator, type ApprovalCoordinator } from "@orpc-agent/core";
import { createPgApprovalCoordinator } from "@orpc-agent/postgres";
import { APPROVALS_TABLE, useApprovalsSchema } from "./approvals-schema.js";
import { tamperable } from "./tamperable.js";

export type Clock = { now(): Date; advance(ms: number): void };

export type ApprovalStore = {
  name: string;
  /** A fresh coordinator on `clock` (the PostgreSQL ones share one table; approval ids never collide). */
  open(clock: Clock): { coordinator: ApprovalCoordinator; edit(id: string): Promise<void> };
};

export function clockAt(iso = "2031-03-04T05:06:07.000Z"): Clock {
  let at = Date.parse(iso);
  return { now: () => new Date(at), advance: (ms) => void (at += ms) };
}

/** Registers the PostgreSQL schema's hooks; call once at the top of a test file. */
export function approvalStores(schemaPrefix: string): ApprovalStore[] {
  const db = useApprovalsSchema(schemaPrefix);
  return [
    {
      name: "in-memory",
      open(clock) {
        const store = tamperable(createInMemoryApprovalCoordinator({ now: () => clock.now() }));
        const edited = new Set<string>();
        store.set((record) => (edited.has(record.id) ? { ...record, reasons: ["Edited in the store."] } : record));
        return { coordinator: store.coordinator, edit: async (id) => void edited.add(id) };
      },
    },
    {
      name: "PostgreSQL",
      open(clock) {
        const coordinator = createPgApprovalCoordinator({ query: db.query, now: () => clock.now() });
        const edit = async (id: string) => void (await db.pool().query(`update ${APPROVALS_TABLE} set reasons = '["Edited in the store."]'::jsonb where id = $1`, [id]));
        return { coordinator, edit };
      },
    },
  ];
}
