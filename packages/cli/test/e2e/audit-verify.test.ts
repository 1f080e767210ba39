import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRecordHash } from "@orpc-agent/core";
import { auditChainDdl } from "../../../postgres/src/audit/chain-ddl.js";
import { readPgAuditTrail } from "../../../postgres/src/audit/read-trail.js";
import { auditDdl } from "../../../postgres/src/ddl.js";
import { BUILT } from "../helpers/paths.js";
import { runCli, tempDir } from "../helpers/run-cli.js";

// ADR-025 acceptance on the real server: two writer processes chain 10 002 events into one table concurrently;
// `orpc-agent audit verify` (the built binary, a child process) passes the untouched trail and reports a modified,
// a deleted, a reordered and an inserted event, each in a copy of the table.
const url = process.env.TEST_DATABASE_URL as string;
const schema = `audit_cli_${process.pid}`;
const table = `${schema}.orpc_agent_audit_events`;
const CALLS_PER_WRITER = 1667; // 3 events per call: 5001 per writer
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

let pool: pg.Pool;
let dir: string;
let publicKeyPath: string;
let receipt: string;

function writer(keyPath: string, barrier: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = fileURLToPath(new URL("./audit-writer.ts", import.meta.url));
  return new Promise((resolve, reject) => {
    const args = [script, url, table, String(CALLS_PER_WRITER), keyPath, "audit-key-1", barrier, "2"];
    const child = spawn(process.execPath, ["--conditions=@orpc-agent/source", "--import", "tsx", ...args], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A copy of the trail (events and checkpoints) to tamper with; returns its table name. */
async function copyTrail(name: string): Promise<string> {
  const copy = `${schema}.${name}`;
  await pool.query(`create table ${copy} (like ${table} including all)`);
  await pool.query(`insert into ${copy} overriding system value select * from ${table}`);
  await pool.query(`create table ${copy}_checkpoints (like ${table}_checkpoints including all)`);
  await pool.query(`insert into ${copy}_checkpoints overriding system value select * from ${table}_checkpoints`);
  return copy;
}

const verify = (args: string[]) => runCli(["audit", "verify", "--database-url", url, "--public-key", publicKeyPath, ...args]);

describe.skipIf(!BUILT)("orpc-agent audit verify on a real server (ADR-025)", () => {
  let chainId: string;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: url, max: 2 });
    await pool.query(`drop schema if exists ${schema} cascade`);
    await pool.query(`create schema ${schema}`);
    await pool.query(auditDdl(table));
    await pool.query(auditChainDdl(table));
    dir = tempDir();
    const keys = generateKeyPairSync("ed25519");
    const privateKeyPath = join(dir, "audit-key.pem");
    publicKeyPath = join(dir, "audit-key.pub.pem");
    writeFileSync(privateKeyPath, keys.privateKey.export({ type: "pkcs8", format: "pem" }));
    writeFileSync(publicKeyPath, keys.publicKey.export({ type: "spki", format: "pem" }));

    const barrier = join(dir, "writers");
    mkdirSync(barrier);
    const [a, b] = await Promise.all([writer(privateKeyPath, barrier), writer(privateKeyPath, barrier)]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    receipt = a.stdout.trim().split(" ")[2] as string;
    const { rows } = await pool.query<{ chain_id: string }>(`select min(chain_id) as chain_id from ${table}`);
    chainId = rows[0]!.chain_id;
  }, 180_000);

  afterAll(async () => {
    await pool?.query(`drop schema if exists ${schema} cascade`);
    await pool?.end();
  });

  it("passes the untouched trail of two concurrent writers, and locates a receipt", async () => {
    const { rows } = await pool.query<{ n: number; chains: number }>(`select count(*)::int as n, count(distinct chain_id)::int as chains from ${table}`);
    expect(rows[0]).toEqual({ n: 2 * 3 * CALLS_PER_WRITER, chains: 2 });
    // The writers interleaved: rows of both chains alternate in insertion order.
    const switches = await pool.query<{ n: number }>(
      `select count(*)::int as n from (select chain_id, lag(chain_id) over (order by id) as before from ${table}) t where before is not null and before <> chain_id`,
    );
    expect(switches.rows[0]!.n).toBeGreaterThan(1);

    const run = await verify(["--table", table, "--receipt", receipt]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain(`audit trail: ${2 * 3 * CALLS_PER_WRITER} events in 2 chain(s)`);
    expect(run.stdout).toContain("intact");
    expect(run.stdout).toContain(`receipt ${receipt}: verified`);
    expect(run.stdout).toMatch(/seq \d+ {2}\S+ {2}capability\.requested\n.*capability\.started\n.*capability\.completed/);
    process.stdout.write(`[audit verify] ${2 * 3 * CALLS_PER_WRITER} events from 2 writers verified in ${Math.round(run.ms)} ms (child process, wall clock)\n`);
  });

  it("reports a modified event", async () => {
    const copy = await copyTrail("modified");
    await pool.query(`update ${copy} set actor_id = 'user_mallory' where chain_id = $1 and seq = 100`, [chainId]);
    const run = await verify(["--table", copy]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain("TAMPERED");
    expect(run.stdout).toMatch(/modified: event seq 100 \(/);
  });

  it("reports a deleted event", async () => {
    const copy = await copyTrail("deleted");
    await pool.query(`delete from ${copy} where chain_id = $1 and seq = 100`, [chainId]);
    const run = await verify(["--table", copy]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/deleted: event seq 100 of chain/);
  });

  it("reports a reordered event", async () => {
    const copy = await copyTrail("reordered");
    await pool.query(`update ${copy} set seq = case seq when 100 then 103 else 100 end where chain_id = $1 and seq in (100, 103)`, [chainId]);
    const run = await verify(["--table", copy]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/reordered: event seq 100 \(.*\) was reordered: it was written as seq 103/);
  });

  it("reports an inserted event, even with a correctly recomputed hash", async () => {
    const copy = await copyTrail("inserted");
    const { rows } = await pool.query<{ hash: string; execution_id: string; capability_id: string }>(
      `select hash, execution_id, capability_id from ${copy} where chain_id = $1 and seq = 99`,
      [chainId],
    );
    const before = rows[0]!;
    const forged = {
      chainId,
      seq: 100,
      prev: before.hash,
      type: "capability.approved",
      timestamp: "2026-12-02T00:00:00.000Z",
      surface: "direct",
      actor: { id: "user_mallory", kind: "user" as const },
      capabilityId: before.capability_id,
      data: { approvalId: "apr_forged", approver: { id: "user_mallory", kind: "user" } },
    };
    await pool.query(
      // The copy's identity sequence starts over, so the forged row takes the next id by hand.
      `insert into ${copy} (id, type, at, surface, actor_id, actor_kind, capability_id, data, chain_id, seq, prev_hash, hash)
       overriding system value
       select max(id) + 1, $1, $2::timestamptz, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11 from ${copy}`,
      [forged.type, forged.timestamp, forged.surface, forged.actor.id, forged.actor.kind, forged.capabilityId, JSON.stringify(forged.data), chainId, 100, forged.prev, auditRecordHash(forged)],
    );
    const run = await verify(["--table", copy]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/inserted: event seq 100 \(capability\.approved/);
  });

  it("reports a trail rewritten with every later hash recomputed and its checkpoints deleted", async () => {
    const copy = await copyTrail("resealed");
    // SHA-256 needs no key: re-link the whole chain after the edit, then remove the signatures that would disagree.
    const { events } = await readPgAuditTrail({ query: (sql, params) => pool.query(sql, params as unknown[]), table: copy, chainId });
    let prev = events.find((event) => event.seq === 99)!.hash;
    const seqs: number[] = [];
    const prevs: string[] = [];
    const hashes: string[] = [];
    for (const { ref: _ref, ...event } of events.filter((each) => each.seq >= 100)) {
      const fields = { ...event, ...(event.seq === 100 ? { actor: { id: "user_mallory", kind: "user" as const } } : {}), prev };
      prev = auditRecordHash(fields);
      seqs.push(event.seq);
      prevs.push(fields.prev);
      hashes.push(prev);
    }
    await pool.query(
      `update ${copy} t set prev_hash = v.prev, hash = v.hash, actor_id = case when v.seq = 100 then 'user_mallory' else t.actor_id end
       from unnest($1::bigint[], $2::text[], $3::text[]) as v(seq, prev, hash) where t.chain_id = $4 and t.seq = v.seq`,
      [seqs, prevs, hashes, chainId],
    );
    // With the checkpoints in place the signed ones give the rewrite away.
    const underCheckpoints = await verify(["--table", copy]);
    expect(underCheckpoints.code, underCheckpoints.stderr).toBe(1);
    expect(underCheckpoints.stdout).toContain("rewritten:");
    await pool.query(`delete from ${copy}_checkpoints`);
    const run = await verify(["--table", copy]);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    expect(run.stdout).toContain("TAMPERED");
    expect(run.stdout).toMatch(/unsigned-chain: chain \S+ \(\d+ events\) has no signed checkpoint/);
  });

  it("exports JSONL that verifies offline, and reports a line edited in it", async () => {
    const out = join(dir, "trail.jsonl");
    const exported = await runCli(["audit", "export", "--database-url", url, "--table", table, "-o", out]);
    expect(exported.code, exported.stderr).toBe(0);
    const offline = await runCli(["audit", "verify", "--file", out, "--public-key", publicKeyPath]);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toContain("intact");

    const lines = readFileSync(out, "utf8").split("\n");
    const index = lines.findIndex((line) => line.includes('"type":"capability.completed"'));
    lines[index] = lines[index]!.replace(/"attempts":1/, '"attempts":2');
    const edited = join(dir, "edited.jsonl");
    writeFileSync(edited, lines.join("\n"));
    const tampered = await runCli(["audit", "verify", "--file", edited, "--public-key", publicKeyPath]);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toMatch(/modified: event seq \d+ \(capability\.completed at .*, line \d+\)/);
  });

  it("exits 2 when it cannot run: no key, a key of another algorithm, an unreachable server, a missing table", async () => {
    const noKey = await runCli(["audit", "verify", "--database-url", url, "--table", table]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("needs --public-key");

    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const rsaPath = join(dir, "rsa.pub.pem");
    writeFileSync(rsaPath, rsa.publicKey.export({ type: "spki", format: "pem" }));
    const wrongKey = await runCli(["audit", "verify", "--database-url", url, "--table", table, "--public-key", rsaPath]);
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.stderr).toContain("not an Ed25519 public key");

    const unreachable = await verify(["--database-url", "postgres://postgres@127.0.0.1:1/none"]);
    expect(unreachable.code).toBe(2);
    const missing = await verify(["--table", `${schema}.no_such_table`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("could not read the audit trail");

    const otherKey = generateKeyPairSync("ed25519");
    const otherPath = join(dir, "other.pub.pem");
    writeFileSync(otherPath, otherKey.publicKey.export({ type: "spki", format: "pem" }));
    const unknown = await runCli(["audit", "verify", "--database-url", url, "--table", table, "--public-key", `another-key=${otherPath}`]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no public key for key id(s) audit-key-1");

    const forgedSignature = await runCli(["audit", "verify", "--database-url", url, "--table", table, "--public-key", otherPath]);
    expect(forgedSignature.code).toBe(1);
    expect(forgedSignature.stdout).toContain("forged-checkpoint");
  });
});
