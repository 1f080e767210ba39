import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createPgAuditSink } from "../../src/index.js";
import { ap } from "../support/orpc.js";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";
import type pg from "pg";

// drainAudit reports how many best-effort writes failed, not the length of the list it keeps (issue 34 item 4).
describe(`drainAudit failure count on a ${REAL_SERVER}`, () => {
  let pool: pg.Pool;
  let schema: string;
  beforeAll(async () => {
    pool = createTestPool({ max: 4 });
    schema = await createTestSchema(pool, "drain_count");
  });
  afterAll(async () => {
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  it("reports the true number of failed writes when more fail than are kept", async () => {
    // The table does not exist: every INSERT fails on the server.
    const pgSink = createPgAuditSink({ query: (sql, params) => pool.query(sql, params), table: `${schema}.missing_events` });
    let writes = 0;
    const sink: typeof pgSink = Object.assign((event: Parameters<typeof pgSink>[0]) => (writes++, pgSink(event)), pgSink);
    const governance = defineGovernance({
      registry: createCapabilityRegistry({
        ping: ap
          .input(z.object({ n: z.number() }))
          .meta({ agent: { description: "Ping.", expose: { direct: true }, sideEffect: "read", risk: "low" } })
          .handler(async () => ({ ok: true })),
      }),
    });
    const runtime = createAgentRuntime({ governance, audit: { sinks: [sink], onSinkError: () => {} } });
    // Each invoke writes requested, started and completed: 400 invokes, 1 200 failing writes.
    for (let i = 0; i < 400; i++) {
      const result = await runtime.invoke("ping", { n: i }, { actor: { id: "u", kind: "user" }, context: {} });
      expect(result.status).toBe("completed");
    }
    const error = await runtime.drainAudit({ timeoutMs: 20_000 }).then(
      () => undefined,
      (err: unknown) => err as { code: string; cause: AggregateError },
    );
    expect(error?.code).toBe("AUDIT_UNAVAILABLE");
    expect(writes).toBe(1200);
    expect(error?.cause.message).toBe("1200 audit writes failed (the first 100 are attached).");
    expect(error?.cause.errors).toHaveLength(100);
    // The count restarts after a drain reported it.
    await expect(runtime.drainAudit()).resolves.toBeUndefined();
  });
});
