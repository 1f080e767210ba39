import { createHash } from "node:crypto";
import { createInvocationService, type InvocationRecord, type InvocationService } from "@orpc-agent/core/server";
import { createPgInvocationJournal } from "./postgres.js";
import type { TestDatabase } from "./database.js";

/** docs/architecture/spec/distributed.md#distributed-5-1: the effect key the service hands the runtime for one logical invocation. */
export const idempotencyKeyOf = (namespace: string, invocationId: string): string =>
  `inv_${createHash("sha256").update(`${namespace}\u0000${invocationId}`).digest("base64url")}`;

/** A service on the Postgres journal of the test database; the pool is read at call time, after `beforeAll`. */
export function pgService(db: () => TestDatabase, namespace: string, o: { leaseMs?: number } = {}): InvocationService {
  return createInvocationService({
    journal: createPgInvocationJournal({ query: (sql, params) => db().pool.query(sql, params) }),
    namespace,
    revision: "test",
    ...o,
  });
}

/** Reads the journal row every 20 ms until `accept` holds; the last row read is in the error otherwise. */
export async function untilRecord(
  service: InvocationService,
  invocationId: string,
  accept: (record: InvocationRecord) => boolean,
  timeoutMs = 15_000,
): Promise<InvocationRecord> {
  const deadline = Date.now() + timeoutMs;
  let last: InvocationRecord | null = null;
  while (Date.now() < deadline) {
    last = await service.get(invocationId);
    if (last !== null && accept(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`journal row ${invocationId} never reached the expected state; last seen: ${JSON.stringify(last)}`);
}

/** The approval a step is suspended on, once its row is `pending` with it. */
export async function untilSuspended(service: InvocationService, invocationId: string): Promise<string> {
  const record = await untilRecord(service, invocationId, (r) => r.state === "pending" && r.approvalId !== undefined);
  return record.approvalId!;
}
