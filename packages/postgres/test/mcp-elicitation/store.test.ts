// What the PostgreSQL MCP elicitation state store promises beyond the shared contract (issue 48): its options are
// checked at construction; each operation is one statement, a write at the total bound one more; an expired row is
// deleted by the next write; a row whose record disagrees with its key (kind, principal or call) reads as absent;
// and writes racing for one principal never fail, the bound holding again after the principal's next write.
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mcpElicitationDdl } from "../../src/ddl.js";
import { createPgMCPElicitationStateStore, INVOCATIONS_DDL } from "../../src/index.js";
import { usePglite } from "../support/pglite.js";
import { createTestPool, createTestSchema, dropTestSchema, REAL_SERVER } from "../support/real-server.js";
import { recordStatements } from "../support/statement-log.js";

const TABLE = "orpc_agent_mcp_elicitation_state";
const DANA = JSON.stringify(["u_dana", "user", null]);
const PRIYA = JSON.stringify(["u_priya", "user", null]);
const FAR = 4_000_000_000_000;
const pending = (n: number, expiresAt = FAR + 60_000) => ({ approvalId: `apr_${n}`, url: `https://approvals.example.test/requests/apr_${n}`, message: "Awaiting approval.", expiresAt });
const callKey = (n: number) => JSON.stringify(["payments.refund", `hash-${n}`]);

describe("createPgMCPElicitationStateStore: construction", () => {
  const query = async () => ({ rows: [] });

  it("refuses a missing query, an invalid table name and bounds that are not positive integers", () => {
    expect(() => createPgMCPElicitationStateStore({} as never)).toThrow(/query is required/);
    expect(() => createPgMCPElicitationStateStore({ query, table: "x; drop table y" })).toThrow(/Invalid table name/);
    for (const bound of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "10" as never]) {
      expect(() => createPgMCPElicitationStateStore({ query, limits: { pending: { perPrincipal: bound, total: 10 } } })).toThrow(/limits\.pending\.perPrincipal must be a positive integer/);
      expect(() => createPgMCPElicitationStateStore({ query, limits: { declaredCapabilities: { perPrincipal: 1, total: bound } } })).toThrow(/limits\.declaredCapabilities\.total must be a positive integer/);
    }
    expect(() => createPgMCPElicitationStateStore({ query, table: "app.mcp_elicitation_state", limits: { pending: { perPrincipal: 1, total: 1 } } })).not.toThrow();
  });

  it("refuses to write an expiry that is not a finite instant", async () => {
    const store = createPgMCPElicitationStateStore({ query });
    await expect(store.setPending(DANA, callKey(1), pending(1, Number.NaN))).rejects.toThrow(TypeError);
    await expect(store.setDeclaredCapabilities(DANA, { capabilities: {}, expiresAt: Number.POSITIVE_INFINITY })).rejects.toThrow(TypeError);
  });
});

describe("over PGlite", () => {
  const pglite = usePglite(INVOCATIONS_DDL);
  beforeEach(async () => {
    await pglite.db().query(`truncate table ${TABLE}`);
  });

  it("one statement per read, delete and write; a write at the total bound one more", async () => {
    const { query, statements } = recordStatements(pglite.query);
    const store = createPgMCPElicitationStateStore({ query, limits: { pending: { perPrincipal: 10, total: 2 } } });
    await store.setPending(DANA, callKey(1), pending(1));
    await store.getPending(DANA, callKey(1), FAR);
    await store.deletePending(DANA, callKey(1));
    await store.setDeclaredCapabilities(DANA, { capabilities: {} });
    await store.getDeclaredCapabilities(DANA, FAR);
    expect(statements).toHaveLength(5);
    await store.setPending(DANA, callKey(2), pending(2));
    expect(statements).toHaveLength(6);
    // Two retries: at the total bound, still one statement.
    await store.setPending(PRIYA, callKey(3), pending(3));
    expect(statements).toHaveLength(7);
    // The next one passes it: a second statement removes the largest holder's (priya's) oldest.
    await store.setPending(PRIYA, callKey(4), pending(4));
    expect(statements).toHaveLength(9);
    expect(await store.getPending(PRIYA, callKey(3), FAR)).toBeUndefined();
    expect(await store.getPending(DANA, callKey(2), FAR)).toEqual(pending(2));
  });

  it("an expired row is deleted by the next write, whoever makes it", async () => {
    const store = createPgMCPElicitationStateStore({ query: pglite.query });
    await store.setPending(DANA, callKey(1), pending(1, Date.now() - 1));
    expect((await pglite.db().query(`select count(*)::int as n from ${TABLE}`)).rows).toEqual([{ n: 1 }]);
    // A write of another kind deletes it; its own row, expired as written, stays until a later write.
    await store.setDeclaredCapabilities(DANA, { capabilities: {}, expiresAt: Date.now() - 1 });
    expect((await pglite.db().query(`select kind from ${TABLE}`)).rows).toEqual([{ kind: "capabilities" }]);
    await store.setPending(PRIYA, callKey(2), pending(2));
    expect((await pglite.db().query<{ principal: string }>(`select principal from ${TABLE}`)).rows).toEqual([{ principal: PRIYA }]);
  });

  it("a row whose record disagrees with its key, on kind, principal or call, reads as absent", async () => {
    const store = createPgMCPElicitationStateStore({ query: pglite.query });
    await store.setPending(DANA, callKey(1), pending(1));
    await store.setPending(DANA, callKey(2), pending(2));
    await store.setDeclaredCapabilities(DANA, { capabilities: { elicitation: { url: {} } } });
    const db = pglite.db();
    await db.query(`update ${TABLE} set principal = $1 where kind = 'pending' and entry_key = $2`, [PRIYA, callKey(1)]);
    await db.query(`update ${TABLE} set entry_key = $1 where kind = 'pending' and entry_key = $2`, [callKey(3), callKey(2)]);
    await db.query(`update ${TABLE} set kind = 'pending' where kind = 'capabilities'`);
    expect(await store.getPending(PRIYA, callKey(1), FAR)).toBeUndefined();
    expect(await store.getPending(DANA, callKey(3), FAR)).toBeUndefined();
    expect(await store.getPending(DANA, "initialize", FAR)).toBeUndefined();
    expect(await store.getDeclaredCapabilities(DANA, FAR)).toBeUndefined();
  });

  it("a store on a schema-qualified table keeps its rows there", async () => {
    const db = pglite.db();
    await db.exec(`create schema if not exists app; ${mcpElicitationDdl("app.mcp_elicitation_state")}`);
    const store = createPgMCPElicitationStateStore({ query: pglite.query, table: "app.mcp_elicitation_state" });
    await store.setPending(DANA, callKey(1), pending(1));
    expect(await store.getPending(DANA, callKey(1), FAR)).toEqual(pending(1));
    expect((await db.query(`select count(*)::int as n from ${TABLE}`)).rows).toEqual([{ n: 0 }]);
  });
});

describe(REAL_SERVER, () => {
  let pool: pg.Pool;
  let schema: string;
  let table: string;
  beforeAll(async () => {
    pool = createTestPool({ max: 12 });
    schema = await createTestSchema(pool, "mcp_elicitation_store");
    table = `${schema}.${TABLE}`;
    await pool.query(mcpElicitationDdl(table));
  });
  afterAll(async () => {
    await dropTestSchema(pool, schema);
    await pool.end();
  });

  it("writes racing for one principal all succeed, and the next write brings the principal back within its bound", async () => {
    const store = createPgMCPElicitationStateStore({ query: (sql, params) => pool.query(sql, params), table, limits: { pending: { perPrincipal: 5, total: 1_000 } } });
    await Promise.all(Array.from({ length: 5 }, (_, i) => store.setPending(DANA, callKey(100 + i), pending(100 + i, Date.now() - 1))));
    await Promise.all(Array.from({ length: 24 }, (_, i) => store.setPending(DANA, callKey(i), pending(i))));
    await store.setPending(DANA, callKey(99), pending(99));
    const { rows } = await pool.query<{ n: number }>(`select count(*)::int as n from ${table} where principal = $1`, [DANA]);
    expect(rows[0]!.n).toBe(5);
    expect(await store.getPending(DANA, callKey(99), Date.now())).toEqual(pending(99));
  });
});
