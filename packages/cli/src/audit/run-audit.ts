import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseReceiptId, verifyAuditTrail, type AuditTrailReport } from "@orpc-agent/core";
import { couldNotRun, notice, type CliIo } from "../commands/io.js";
import { loadPg, type PgLikeClient } from "./load-pg.js";
import { AUDIT_USAGE, parseAuditArgs, type AuditArgs } from "./parse-audit-args.js";
import { exportLines, readJsonlTrail, readPostgresTrail, type Trail } from "./read-trail.js";
import { locateReceipt, renderReport } from "./render-report.js";

/** `orpc-agent audit …`: 0 intact, 1 tampered, 2 could not run (ADR-025). */
export async function runAudit(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseAuditArgs(argv, io);
  if (!parsed.ok) {
    io.stderr.write(`orpc-agent: ${parsed.error}\n\n${AUDIT_USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout.write(AUDIT_USAGE);
    return 0;
  }
  const args = parsed.args;
  const cwd = resolve(io.cwd, args.cwd ?? ".");

  let trail: Trail;
  try {
    trail = args.file !== undefined ? readJsonlTrail(resolve(cwd, args.file)) : await readDatabase(args, cwd);
  } catch (error) {
    return couldNotRun(io, `could not read the audit trail: ${error instanceof Error ? error.message : String(error)}`);
  }

  if (args.action === "export") {
    const text = exportLines(trail).map((line) => `${line}\n`).join("");
    try {
      if (args.out === undefined || args.out === "-") io.stdout.write(text);
      else writeFileSync(resolve(cwd, args.out), text);
    } catch (error) {
      return couldNotRun(io, `could not write the export: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (args.out !== undefined && args.out !== "-") notice(io, `wrote ${args.out} (${trail.events.length} events, ${trail.checkpoints.length} checkpoints)`);
    return 0;
  }

  let verifySignature: ((payload: string, signature: string, keyId: string) => boolean | "unknown-key") | undefined;
  if (!args.skipSignatures) {
    try {
      verifySignature = signatureVerifier(args, cwd);
    } catch (error) {
      return couldNotRun(io, error instanceof Error ? error.message : String(error));
    }
  }
  if (args.receipt !== undefined && parseReceiptId(args.receipt) === undefined) return couldNotRun(io, `--receipt "${args.receipt}" is not a receipt id (<chainId>.<seq>)`);

  let report: AuditTrailReport;
  try {
    report = verifyAuditTrail({ events: trail.events, checkpoints: trail.checkpoints, ...(verifySignature ? { verifySignature } : {}) });
  } catch (error) {
    // The verifier reports what it reads as findings; should anything still throw, say so plainly: never exit 0, never a stack.
    return couldNotRun(io, `could not verify the audit trail: ${error instanceof Error ? error.message : String(error)}`);
  }
  const receipt = args.receipt === undefined ? undefined : locateReceipt(args.receipt, trail, report);
  const strictFailure = args.requireSigned && (report.unsignedTail > 0 || trail.unchained > 0);
  const receiptFails = receipt !== undefined && (receipt.status === "not-found" || receipt.status === "broken" || (args.requireSigned && receipt.status === "unsigned"));
  renderReport(io, args, report, trail, receipt);
  if (report.findings.length > 0 || strictFailure || receiptFails) return 1;
  if (report.unknownKeys.length > 0) {
    return couldNotRun(io, `no public key for key id(s) ${report.unknownKeys.join(", ")}: pass --public-key <id>=<pem> for each`);
  }
  return 0;
}

async function readDatabase(args: AuditArgs, cwd: string): Promise<Trail> {
  const pg = await loadPg(cwd);
  if (pg === undefined) throw new Error("reading a database needs the pg package: install it in your project (npm i pg), or verify a JSONL export with --file");
  const client: PgLikeClient = new pg.Client({ connectionString: args.databaseUrl as string });
  await client.connect();
  try {
    return await readPostgresTrail(client, args.table, args.checkpointTable as string);
  } finally {
    await client.end().catch(() => {});
  }
}

function signatureVerifier(args: AuditArgs, cwd: string) {
  const byId = new Map<string, KeyObject>();
  let fallback: KeyObject | undefined;
  for (const entry of args.publicKeys) {
    let key: KeyObject;
    try {
      key = createPublicKey(readFileSync(resolve(cwd, entry.path), "utf8"));
    } catch (error) {
      throw new Error(`could not read the public key ${entry.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (key.asymmetricKeyType !== "ed25519") throw new Error(`${entry.path} is not an Ed25519 public key`);
    if (entry.keyId === undefined) {
      if (fallback !== undefined) throw new Error("give at most one --public-key without a key id; name the others as <id>=<pem>");
      fallback = key;
    } else byId.set(entry.keyId, key);
  }
  return (payload: string, signature: string, keyId: string): boolean | "unknown-key" => {
    const key = byId.get(keyId) ?? fallback;
    if (key === undefined) return "unknown-key";
    return verify(null, Buffer.from(payload, "utf8"), key, Buffer.from(signature, "base64"));
  };
}
