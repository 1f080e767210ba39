// Issue 43, attacking `orpc-agent audit verify` as a child process over a real PostgreSQL audit chain (ADR-025). Two
// chained runtimes write a signed trail once; each test edits its own copy of the tables with SQL, as someone with
// write access to the database can, and runs the CLI from source on it. Whatever the edit, the command never exits 0
// on tampering it claims to detect, names the first broken row, and never dies with a stack trace: a readable
// message and a non-zero exit. What it documents it cannot see (truncation after the last checkpoint, a whole chain
// deleted with its checkpoints, unchained rows) it reports as docs/guides/verifiable-audit.md#limits says.
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { os } from "@orpc/server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { agentProcedure, auditRecordHash, createAgentRuntime, createCapabilityRegistry, defineGovernance } from "@orpc-agent/core";
import { createPgAuditSink } from "@orpc-agent/postgres";
import { auditChainDdl } from "../../packages/postgres/src/audit/chain-ddl.js";
import { auditDdl } from "../../packages/postgres/src/ddl.js";

const url = process.env.TEST_DATABASE_URL as string;
const schema = `audit_cli_attacks_${process.pid}`;
const template = `${schema}.trail`;
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
// The published binary, built from the current sources by the project's global setup (packages/cli/test/global-setup.ts).
const CLI = fileURLToPath(new URL("../../packages/cli/bin/orpc-agent.js", import.meta.url));
const CALLS = 5; // 3 events each: 15 events per chain
const STACK_FRAME = /^\s+at .+[:(]/m;

let pool: pg.Pool;
let publicKeyPath: string;
let chainA: string;
let chainB: string;
let copies = 0;

type Run = { code: number | null; stdout: string; stderr: string };

/** The CLI as its own process: what an auditor runs, with nothing of this test's state. */
function cli(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
      // A verify that never finishes is a failure too: the process is ended rather than left behind (exit code null).
      timeout: 60_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const verify = (table: string, ...extra: string[]) => cli(["audit", "verify", "--database-url", url, "--table", table, "--public-key", publicKeyPath, ...extra]);

/** Tampered: exit 1, a TAMPERED report, no stack trace anywhere. */
function expectTampered(run: Run): void {
  expect(run.code, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toContain("TAMPERED");
  expect(run.stdout + run.stderr).not.toMatch(STACK_FRAME);
}

/** A fresh copy of the template trail (events and checkpoints) for one attack. */
async function copyTrail(): Promise<{ table: string; checkpoints: string }> {
  const table = `${schema}.copy_${++copies}`;
  await pool.query(`create table ${table} (like ${template} including all)`);
  await pool.query(`insert into ${table} overriding system value select * from ${template}`);
  await pool.query(`create table ${table}_checkpoints (like ${template}_checkpoints including all)`);
  await pool.query(`insert into ${table}_checkpoints overriding system value select * from ${template}_checkpoints`);
  return { table, checkpoints: `${table}_checkpoints` };
}

async function rowId(table: string, chainId: string, seq: number): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(`select id::text as id from ${table} where chain_id = $1 and seq = $2`, [chainId, seq]);
  return rows[0]!.id;
}

/** Two runtimes, two chains, written concurrently through the real sink with signed checkpoints along the way. */
async function writeTemplate(privateKey: string): Promise<void> {
  await pool.query(auditDdl(template));
  await pool.query(auditChainDdl(template));
  const base = agentProcedure(os);
  const governance = defineGovernance({
    registry: createCapabilityRegistry({
      orders: {
        refund: base
          .input(z.object({ orderId: z.string(), cents: z.number() }))
          .meta({ agent: { description: "Refund an order.", expose: { direct: true }, sideEffect: "write", risk: "medium" } })
          .handler(async ({ input }) => ({ refunded: input.cents })),
      },
    }),
  });
  const query = (sql: string, params?: readonly unknown[]) => pool.query(sql, params as unknown[]);
  const writers = [0, 1].map(() => {
    const sink = createPgAuditSink({ query, table: template, checkpoint: { privateKey, keyId: "audit-key-1", everyEvents: 6 } });
    return { sink, runtime: createAgentRuntime({ governance, audit: { sinks: [sink], chain: true } }) };
  });
  await Promise.all(
    writers.map(async ({ runtime }, w) => {
      for (let i = 0; i < CALLS; i++) {
        const result = await runtime.invoke("orders.refund", { orderId: `o_${w}_${i}`, cents: 100 + i }, { actor: { id: `user_${w}`, kind: "user" }, context: {} });
        if (result.status !== "completed") throw new Error(`unexpected ${result.status}`);
      }
    }),
  );
  for (const { runtime, sink } of writers) {
    await runtime.drainAudit({ timeoutMs: 30_000 });
    await sink.close();
  }
}

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on("error", () => {});
  await pool.query(`drop schema if exists ${schema} cascade`);
  await pool.query(`create schema ${schema}`);
  const keys = generateKeyPairSync("ed25519");
  const dir = mkdtempSync(join(tmpdir(), "audit-cli-attacks-"));
  publicKeyPath = join(dir, "audit-key.pub.pem");
  writeFileSync(publicKeyPath, keys.publicKey.export({ type: "spki", format: "pem" }));
  await writeTemplate(keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString());
  const { rows } = await pool.query<{ chain_id: string }>(`select distinct chain_id from ${template} order by chain_id`);
  [chainA, chainB] = rows.map((row) => row.chain_id) as [string, string];
}, 60_000);

afterAll(async () => {
  await pool?.query(`drop schema if exists ${schema} cascade`);
  await pool?.end();
});

describe("orpc-agent audit verify against SQL edits of a real chain (issue 43, ADR-025)", () => {
  it("the untouched trail of two chains verifies: exit 0", async () => {
    const { table } = await copyTrail();
    const run = await verify(table);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`audit trail: ${2 * 3 * CALLS} events in 2 chain(s)`);
    expect(run.stdout).toContain("intact");
  });

  it("a payload field changed in data, and each hashed column changed in turn, is a modified event naming its row", async () => {
    const { table } = await copyTrail();
    const id = await rowId(table, chainA, 5);
    const edits = [
      `data = jsonb_set(data, '{attempts}', '2')`,
      `type = 'capability.denied'`,
      `actor_id = 'user_mallory'`,
      `actor_kind = 'service'`,
      `surface = 'mcp'`,
      `at = at + interval '1 second'`,
      `capability_id = 'orders.delete'`,
      `execution_id = 'exe_forged'`,
    ];
    for (const edit of edits) {
      const original = await pool.query(`select * from ${table} where id = $1`, [id]);
      await pool.query(`update ${table} set ${edit} where id = $1`, [id]);
      const run = await verify(table);
      expectTampered(run);
      expect(run.stdout, edit).toMatch(new RegExp(`modified: event seq 5 \\(.*row id ${id}\\)`));
      // Put the row back for the next edit.
      const row = original.rows[0] as Record<string, unknown>;
      await pool.query(
        `update ${table} set data = $2::jsonb, type = $3, actor_id = $4, actor_kind = $5, surface = $6, at = $7, capability_id = $8, execution_id = $9 where id = $1`,
        [id, JSON.stringify(row.data), row.type, row.actor_id, row.actor_kind, row.surface, row.at, row.capability_id, row.execution_id],
      );
    }
    expect((await verify(table)).code).toBe(0);
  }, 120_000);

  it("a timestamp moved by less than a millisecond is modified too: the sink writes whole milliseconds", async () => {
    const { table } = await copyTrail();
    const id = await rowId(table, chainA, 5);
    await pool.query(`update ${table} set at = at + interval '400 microseconds' where id = $1`, [id]);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toMatch(new RegExp(`modified: event seq 5 \\(.*row id ${id}\\)`));
  });

  it("a row deleted in the middle is a deleted event at its seq", async () => {
    const { table } = await copyTrail();
    await pool.query(`delete from ${table} where chain_id = $1 and seq = 7`, [chainA]);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toContain(`deleted: event seq 7 of chain ${chainA} was deleted`);
  });

  it("truncation under the closing checkpoint is detected: the last rows of a chain deleted", async () => {
    const { table } = await copyTrail();
    await pool.query(`delete from ${table} where chain_id = $1 and seq > 13`, [chainA]);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toContain(`deleted: event seq 14–15 of chain ${chainA} was deleted (the end of the chain was cut: a signed checkpoint covers it)`);
  });

  it("truncation together with the checkpoints covering it is not detectable from the table (documented): a note, and --require-signed fails", async () => {
    const { table, checkpoints } = await copyTrail();
    const { rows } = await pool.query<{ seq: string }>(`select seq::text as seq from ${checkpoints} where chain_id = $1 and seq > 0 order by seq`, [chainA]);
    const kept = Number(rows[0]!.seq); // the first checkpoint after the opening one
    await pool.query(`delete from ${table} where chain_id = $1 and seq > 13`, [chainA]);
    await pool.query(`delete from ${checkpoints} where chain_id = $1 and seq > $2`, [chainA, kept]);
    const run = await verify(table);
    // What the docs promise: linked but unsigned events are a note, not a finding; the cut itself is invisible.
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`note: ${13 - kept} event(s) after the last signed checkpoint are linked but not yet signed`);
    const strict = await verify(table, "--require-signed");
    expect(strict.code).toBe(1);
    expect(strict.stdout + strict.stderr).not.toMatch(STACK_FRAME);
  });

  it("a whole chain deleted with its checkpoints leaves no trace in the table (documented): the other chain still verifies", async () => {
    const { table, checkpoints } = await copyTrail();
    await pool.query(`delete from ${table} where chain_id = $1`, [chainB]);
    await pool.query(`delete from ${checkpoints} where chain_id = $1`, [chainB]);
    const run = await verify(table);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`audit trail: ${3 * CALLS} events in 1 chain(s)`);
  });

  it("two rows' sequence numbers swapped is a reordered event", async () => {
    const { table } = await copyTrail();
    await pool.query(`update ${table} set seq = case seq when 4 then 7 else 4 end where chain_id = $1 and seq in (4, 7)`, [chainA]);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toMatch(/reordered: event seq 4 \(.*row id \d+\) was reordered: it was written as seq 7/);
  });

  it("a forged row with a correctly recomputed hash, inserted mid-chain, is an inserted event; a copy of a genuine row too", async () => {
    const { table } = await copyTrail();
    const { rows } = await pool.query<{ hash: string; capability_id: string }>(`select hash, capability_id from ${table} where chain_id = $1 and seq = 8`, [chainA]);
    const forged = {
      chainId: chainA,
      seq: 9,
      prev: rows[0]!.hash,
      type: "capability.approved",
      timestamp: "2026-12-02T00:00:00.000Z",
      surface: "direct",
      actor: { id: "user_mallory", kind: "user" as const },
      capabilityId: rows[0]!.capability_id,
      data: { approvalId: "apr_forged", approver: { id: "user_mallory", kind: "user" } },
    };
    await pool.query(
      `insert into ${table} (type, at, surface, actor_id, actor_kind, capability_id, data, chain_id, seq, prev_hash, hash)
       values ($1, $2::timestamptz, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11)`,
      [forged.type, forged.timestamp, forged.surface, forged.actor.id, forged.actor.kind, forged.capabilityId, JSON.stringify(forged.data), chainA, 9, forged.prev, auditRecordHash(forged)],
    ).catch(async () => {
      // The copy's identity sequence starts over: take the next id by hand.
      await pool.query(
        `insert into ${table} (id, type, at, surface, actor_id, actor_kind, capability_id, data, chain_id, seq, prev_hash, hash) overriding system value
         select max(id) + 1, $1, $2::timestamptz, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11 from ${table}`,
        [forged.type, forged.timestamp, forged.surface, forged.actor.id, forged.actor.kind, forged.capabilityId, JSON.stringify(forged.data), chainA, 9, forged.prev, auditRecordHash(forged)],
      );
    });
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toMatch(/inserted: event seq 9 \(capability\.approved at 2026-12-02T00:00:00\.000Z, row id \d+\) was inserted/);

    const duplicate = await copyTrail();
    await pool.query(
      `insert into ${duplicate.table} overriding system value select (select max(id) + 1 from ${duplicate.table}), type, at, surface, actor_id, actor_kind,
       execution_id, capability_id, correlation_id, input_hash, data, chain_id, seq, prev_hash, hash, receipt_id from ${duplicate.table} where chain_id = $1 and seq = 6`,
      [chainA],
    );
    const twice = await verify(duplicate.table);
    expectTampered(twice);
    expect(twice.stdout).toMatch(/inserted: event seq 6 \(.*row id \d+\) was inserted: another event already holds seq 6/);
  });

  it("two chains' rows swapped (chain ids exchanged at one seq) breaks both chains at that row", async () => {
    const { table } = await copyTrail();
    const [a, b] = [await rowId(table, chainA, 5), await rowId(table, chainB, 5)];
    await pool.query(`update ${table} set chain_id = case chain_id when $1 then $2 else $1 end where id in ($3, $4)`, [chainA, chainB, a, b]);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toContain("TAMPERED: 2 chain(s) fail verification");
    expect(run.stdout).toMatch(new RegExp(`modified: event seq 5 \\(.*row id ${b}\\).*\\[chain ${chainA}\\]`));
    expect(run.stdout).toMatch(new RegExp(`modified: event seq 5 \\(.*row id ${a}\\).*\\[chain ${chainB}\\]`));
  });

  it("a row moved to the other chain's unsigned end is caught in both chains", async () => {
    const { table } = await copyTrail();
    const a = await rowId(table, chainA, 8);
    await pool.query(`update ${table} set chain_id = $1, seq = 16 where id = $2`, [chainB, a]);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toContain(`deleted: event seq 8 of chain ${chainA} was deleted`);
    expect(run.stdout).toMatch(new RegExp(`modified: event seq 16 \\(.*row id ${a}\\).*\\[chain ${chainB}\\]`));
  });

  it("an edited hash column (in the middle and on the last row) and edited checkpoints are findings, never intact", async () => {
    for (const seq of [5, 15]) {
      const { table } = await copyTrail();
      const id = await rowId(table, chainA, seq);
      await pool.query(`update ${table} set hash = repeat('f', 64) where id = $1`, [id]);
      const run = await verify(table);
      expectTampered(run);
      expect(run.stdout).toMatch(new RegExp(`modified: event seq ${seq} \\(.*row id ${id}\\)`));
    }
    for (const edit of [`signature = 'AAAA'`, `hash = repeat('e', 64)`, `seq = seq + 1`, `lost = '[{"seq": 3, "hash": "x"}]'::jsonb`, `at = at + interval '1 second'`]) {
      const { table, checkpoints } = await copyTrail();
      const { rows } = await pool.query<{ id: string }>(`select id::text as id from ${checkpoints} where chain_id = $1 and seq > 0 order by seq limit 1`, [chainA]);
      await pool.query(`update ${checkpoints} set ${edit} where id = $1`, [rows[0]!.id]);
      const run = await verify(table);
      expectTampered(run);
      expect(run.stdout, edit).toMatch(new RegExp(`forged-checkpoint: checkpoint at seq \\d+ .*\\[chain ${chainA}\\]`));
    }
  }, 120_000);

  it("NULLed columns (every chain and content column, with NOT NULL dropped where the DDL has it) are findings naming the row, never a crash", async () => {
    const columns = ["hash", "prev_hash", "seq", "receipt_id", "data", "type", "actor_id", "actor_kind", "surface", "at", "execution_id"];
    for (const column of columns) {
      const { table } = await copyTrail();
      // The last event of a call carries the receipt; seq 3 is one.
      const id = await rowId(table, chainA, 3);
      await pool.query(`alter table ${table} alter column ${column} drop not null`);
      await pool.query(`update ${table} set ${column} = null where id = $1`, [id]);
      const run = await verify(table);
      expectTampered(run);
      expect(run.stdout, column).toMatch(new RegExp(`event seq (\\d+|null) \\(.*row id ${id}\\)`));
    }
    // A NULL chain id takes the row out of its chain: the gap is the finding.
    const { table } = await copyTrail();
    await pool.query(`update ${table} set chain_id = null where id = $1`, [await rowId(table, chainA, 3)]);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toContain(`deleted: event seq 3 of chain ${chainA} was deleted`);
    expect(run.stdout).toContain("note: 1 row(s) without a chain were not verified");
  }, 180_000);

  it("NULLed or malformed checkpoint columns are forged checkpoints, with signatures and with --skip-signatures alike, never a crash", async () => {
    const edits = [
      ["lost", `null`],
      ["lost", `'{}'::jsonb`],
      ["lost", `'[null]'::jsonb`],
      ["lost", `'[{"seq": "three"}]'::jsonb`],
      ["hash", `null`],
      ["seq", `null`],
      ["at", `null`],
      ["key_id", `null`],
      ["signature", `null`],
    ] as const;
    for (const [column, value] of edits) {
      const { table, checkpoints } = await copyTrail();
      const { rows } = await pool.query<{ id: string }>(`select id::text as id from ${checkpoints} where chain_id = $1 and seq > 0 order by seq limit 1`, [chainA]);
      await pool.query(`alter table ${checkpoints} alter column ${column} drop not null`);
      await pool.query(`update ${checkpoints} set ${column} = ${value} where id = $1`, [rows[0]!.id]);
      for (const extra of [[], ["--skip-signatures"]]) {
        const run = await cli(["audit", "verify", "--database-url", url, "--table", table, ...(extra.length === 0 ? ["--public-key", publicKeyPath] : extra)]);
        expectTampered(run);
        expect(run.stdout, `${column} = ${value} ${extra.join(" ")}`).toMatch(new RegExp(`forged-checkpoint: .*\\[chain ${chainA}\\]`));
      }
    }
  }, 240_000);

  it("a many-megabyte payload is a modified event naming its row", async () => {
    const { table } = await copyTrail();
    const id = await rowId(table, chainA, 5);
    await pool.query(`update ${table} set data = jsonb_build_object('blob', repeat('x', 20000000)) where id = $1`, [id]);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toMatch(new RegExp(`modified: event seq 5 \\(.*row id ${id}\\)`));
  }, 60_000);

  it("a deeply nested payload is a modified event naming its row", async () => {
    const { table } = await copyTrail();
    const id = await rowId(table, chainB, 5);
    await pool.query(`update ${table} set data = ($2 || repeat('[', 5000) || repeat(']', 5000) || '}')::jsonb where id = $1`, [id, '{"deep":']);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toMatch(new RegExp(`modified: event seq 5 \\(.*row id ${id}\\)`));
  }, 60_000);

  it("seq numbers far beyond the chain finish with a finding: the walk never steps through the gap one seq at a time", async () => {
    for (const seq of ["1000000000", "9007199254740991", "9223372036854775807"]) {
      const { table } = await copyTrail();
      const last = await rowId(table, chainA, 15);
      await pool.query(`update ${table} set seq = $2::bigint where id = $1`, [last, seq]);
      const run = await verify(table);
      expectTampered(run);
      expect(run.stdout, seq).toMatch(new RegExp(`(deleted: event seq 15|impossible seq).*\\[chain ${chainA}\\]`));
    }
  }, 90_000);

  it("invalid JSON text in a parsed column (data or lost turned into text) names the row and exits 1, not a parse error", async () => {
    const { table } = await copyTrail();
    const id = await rowId(table, chainA, 5);
    await pool.query(`alter table ${table} alter column data type text using data::text`);
    await pool.query(`update ${table} set data = '{"attempts": 1,' where id = $1`, [id]);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toMatch(new RegExp(`modified: event seq 5 \\(.*row id ${id}\\)`));
    // Exported, the row keeps its text, marked, and the offline verify reports the same event.
    const out = join(mkdtempSync(join(tmpdir(), "audit-cli-export-")), "trail.jsonl");
    const exported = await cli(["audit", "export", "--database-url", url, "--table", table, "-o", out]);
    expect(exported.code, exported.stderr).toBe(0);
    const offline = await cli(["audit", "verify", "--file", out, "--public-key", publicKeyPath]);
    expectTampered(offline);
    expect(offline.stdout).toMatch(/modified: event seq 5 \(.*line \d+\)/);

    const second = await copyTrail();
    const { rows } = await pool.query<{ id: string }>(`select id::text as id from ${second.checkpoints} where chain_id = $1 and seq > 0 order by seq limit 1`, [chainA]);
    await pool.query(`alter table ${second.checkpoints} alter column lost type text using lost::text`);
    await pool.query(`update ${second.checkpoints} set lost = 'not json' where id = $1`, [rows[0]!.id]);
    for (const extra of [["--public-key", publicKeyPath], ["--skip-signatures"]]) {
      const broken = await cli(["audit", "verify", "--database-url", url, "--table", second.table, ...extra]);
      expectTampered(broken);
      expect(broken.stdout).toMatch(new RegExp(`forged-checkpoint: .*\\[chain ${chainA}\\]`));
    }
  }, 120_000);

  it("an infinite timestamp names the row instead of failing the whole read", async () => {
    const { table } = await copyTrail();
    const id = await rowId(table, chainA, 5);
    await pool.query(`update ${table} set at = 'infinity' where id = $1`, [id]);
    const run = await verify(table);
    expectTampered(run);
    expect(run.stdout).toMatch(new RegExp(`modified: event seq 5 \\(.*row id ${id}\\)`));
  });

  it("a forged unchained row is not verified (documented): a note, and --require-signed fails", async () => {
    const { table } = await copyTrail();
    await pool.query(`insert into ${table} (type, at, surface, actor_id, actor_kind, data) values ('capability.approved', now(), 'direct', 'user_mallory', 'user', '{}'::jsonb)`).catch(async () => {
      await pool.query(
        `insert into ${table} (id, type, at, surface, actor_id, actor_kind, data) overriding system value select max(id) + 1, 'capability.approved', now(), 'direct', 'user_mallory', 'user', '{}'::jsonb from ${table}`,
      );
    });
    const run = await verify(table);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("note: 1 row(s) without a chain were not verified");
    const strict = await verify(table, "--require-signed");
    expect(strict.code).toBe(1);
  });
});
