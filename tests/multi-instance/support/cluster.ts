// A cluster for one test file: its own PostgreSQL schema, a round-robin proxy, and N instance processes started
// once. Helpers act on the cluster the way its users do: the approver on a chosen instance, the database as the
// one place where executions are counted.
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { APPROVALS_DDL, AUDIT_CHAIN_DDL, AUDIT_DDL, INVOCATIONS_DDL } from "@orpc-agent/postgres";
import { instanceCommand, startInstance, type Instance } from "./launcher.js";
import { startProxy, type RoundRobinProxy } from "./proxy.js";

export type Cluster = {
  schema: string;
  pool: pg.Pool;
  proxy: RoundRobinProxy;
  /** The MCP endpoint every client uses: the proxy's, never an instance's own. */
  mcpUrl: URL;
  rpcUrl: string;
  instances: Instance[];
  /** Ed25519 public keys, one per instance (key id = instance name). */
  publicKeys: { keyId: string; path: string }[];
  /** Executions recorded by any instance for this key. */
  effects: (key: string) => Promise<{ instance: string; capability: string }[]>;
  /** The approver's decision, made on the named instance's app. */
  decide: (on: string, approvalId: string, decision: Record<string, unknown>) => Promise<{ ok: boolean; body: Record<string, unknown> }>;
  issueGrant: (on: string, options: Record<string, unknown>) => Promise<{ ok: boolean; body: Record<string, unknown> }>;
  instance: (name: string) => Instance;
  /** Command, arguments and environment of an extra instance the test spawns itself (a stdio server), keyed "stdio". */
  stdioCommand: () => ReturnType<typeof instanceCommand>;
  /** Stops every instance still running (SIGTERM: audit drained, chains closed), then the proxy. Drops nothing. */
  stop: () => Promise<void>;
  drop: () => Promise<void>;
};

/** The file's cluster: started before its tests (handed to `started`), stopped and its schema dropped after them. */
export function useCluster(prefix: string, count: number, started: (cluster: Cluster) => void): void {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster(prefix, count);
    started(cluster);
  });
  afterAll(async () => {
    await cluster?.stop();
    await cluster?.drop();
  });
}

export async function startCluster(prefix: string, count: number): Promise<Cluster> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (databaseUrl === undefined) throw new Error("TEST_DATABASE_URL is unset: the global setup starts a PostgreSQL server");
  const schema = `${prefix}_${process.pid}`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, options: `-c search_path=${schema}` });
  pool.on("error", () => {});
  await pool.query(`drop schema if exists ${schema} cascade`);
  await pool.query(`create schema ${schema}`);
  await pool.query(APPROVALS_DDL);
  await pool.query(INVOCATIONS_DDL);
  await pool.query(AUDIT_DDL);
  await pool.query(AUDIT_CHAIN_DDL);
  await pool.query("create table effects (id bigserial primary key, instance text not null, capability text not null, key text not null)");

  const dir = mkdtempSync(join(tmpdir(), "orpc-agent-multi-instance-"));
  const proxy = await startProxy();
  const mcpUrl = new URL(`${proxy.url}/mcp`);
  const names = Array.from({ length: count }, (_, i) => `i${i}`);
  // One key more, for a stdio instance a test may spawn.
  const publicKeys = [...names, "stdio"].map((name) => {
    const keys = generateKeyPairSync("ed25519");
    writeFileSync(join(dir, `${name}.pem`), keys.privateKey.export({ type: "pkcs8", format: "pem" }));
    const path = join(dir, `${name}.pub.pem`);
    writeFileSync(path, keys.publicKey.export({ type: "spki", format: "pem" }));
    return { keyId: name, path };
  });
  // Started together: each one's start-up (tsx compiling the sources) is most of the wait.
  const config = (name: string) => ({ databaseUrl, schema, publicUrl: mcpUrl.href, auditKeyPath: join(dir, `${name}.pem`) });
  const started = await Promise.allSettled(names.map((name) => startInstance(name, config(name))));
  const instances = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  if (instances.length < names.length) {
    // One failed to start: stop the others rather than leave them holding connections.
    await Promise.all(instances.map((i) => i.kill9()));
    await proxy.close();
    throw (started.find((result) => result.status === "rejected") as PromiseRejectedResult).reason;
  }
  for (const instance of instances) proxy.add({ name: instance.name, port: instance.port });

  const instance = (name: string) => {
    const found = instances.find((i) => i.name === name);
    if (found === undefined) throw new Error(`no instance ${name}`);
    return found;
  };
  const post = async (on: string, path: string, body: unknown) => {
    const response = await fetch(`${instance(on).url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { ok: response.ok, body: (await response.json()) as Record<string, unknown> };
  };
  return {
    schema,
    pool,
    proxy,
    mcpUrl,
    rpcUrl: `${proxy.url}/rpc`,
    instances,
    publicKeys,
    instance,
    stdioCommand: () => instanceCommand("stdio", config("stdio"), { MI_STDIO: "1" }),
    effects: async (key) => (await pool.query<{ instance: string; capability: string }>("select instance, capability from effects where key = $1 order by id", [key])).rows,
    decide: (on, approvalId, decision) => post(on, "/decide", { approvalId, decision }),
    issueGrant: (on, options) => post(on, "/grants", options),
    stop: async () => {
      await Promise.all(instances.map((i) => i.stop()));
      await proxy.close();
    },
    drop: async () => {
      await pool.query(`drop schema if exists ${schema} cascade`);
      await pool.end();
    },
  };
}
