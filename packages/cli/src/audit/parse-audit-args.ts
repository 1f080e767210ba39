import type { CliIo } from "../commands/io.js";

/** `orpc-agent audit <verify|export> [options]`: its own small parser, so the drift commands' flags stay as they are. */
export type AuditArgs = {
  action: "verify" | "export";
  databaseUrl: string | undefined;
  file: string | undefined;
  table: string;
  checkpointTable: string | undefined;
  publicKeys: { keyId: string | undefined; path: string }[];
  skipSignatures: boolean;
  requireSigned: boolean;
  receipt: string | undefined;
  format: "plain" | "json";
  out: string | undefined;
  cwd: string | undefined;
};

export const DEFAULT_AUDIT_TABLE = "orpc_agent_audit_events";

export const AUDIT_USAGE = `Usage: orpc-agent audit verify (--database-url <url> | --file <trail.jsonl>) --public-key [<keyId>=]<pem> [options]
       orpc-agent audit export --database-url <url> [-o <trail.jsonl>]

Verifies the hash-chained audit trail of @orpc-agent/postgres (audit: { chain: true }) offline with the
checkpoint public key, and reports the first modified, deleted, reordered or inserted event of each chain.

Options:
  --database-url <url>        PostgreSQL URL (default: $DATABASE_URL); needs the pg package installed
  --file <path>               A JSONL export (audit export) instead of a database
  --table <name>              Audit table (default orpc_agent_audit_events); may be schema-qualified
  --checkpoint-table <name>   Checkpoint table (default <table>_checkpoints)
  --public-key [<id>=]<path>  Ed25519 public key (PEM) for checkpoints signed with key id <id>; repeatable.
                              Without <id>=, the key verifies every key id no other --public-key names
  --skip-signatures           Check hash links only, no public key (does not prove who wrote the trail)
  --require-signed            Also fail on events not yet covered by a signed checkpoint and on unchained rows
  --receipt <id>              Also locate this receipt (runtime result receiptId) and say whether it is verified
  --format <plain|json>       Output format (default plain)
  -o, --out <path>            export: output file; "-" or omitted writes to stdout
  --cwd <path>                Base for relative paths and for resolving pg
  -h, --help                  Show this help

Exit codes: 0 intact, 1 tampered (or an unverified receipt), 2 could not run.
`;

export type ParsedAuditArgs = { ok: true; help: true } | { ok: true; help?: false; args: AuditArgs } | { ok: false; error: string };

const VALUE_FLAGS = new Set(["--database-url", "--file", "--table", "--checkpoint-table", "--public-key", "--receipt", "--format", "-o", "--out", "--cwd"]);

export function parseAuditArgs(argv: readonly string[], io: Pick<CliIo, "env">): ParsedAuditArgs {
  if (argv.some((arg) => arg === "-h" || arg === "--help")) return { ok: true, help: true };
  let action: AuditArgs["action"] | undefined;
  const args: Omit<AuditArgs, "action"> = {
    databaseUrl: undefined,
    file: undefined,
    table: DEFAULT_AUDIT_TABLE,
    checkpointTable: undefined,
    publicKeys: [],
    skipSignatures: false,
    requireSigned: false,
    receipt: undefined,
    format: "plain",
    out: undefined,
    cwd: undefined,
  };
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index] as string;
    if (!token.startsWith("-")) {
      if (action !== undefined) return { ok: false, error: `unexpected argument "${token}"` };
      if (token !== "verify" && token !== "export") return { ok: false, error: `unknown audit command "${token}": use verify or export` };
      action = token;
      continue;
    }
    const at = token.indexOf("=");
    const [name, inline] = token.startsWith("--") && at > 0 ? [token.slice(0, at), token.slice(at + 1)] : [token, undefined];
    if (name === "--skip-signatures" && inline === undefined) {
      args.skipSignatures = true;
      continue;
    }
    if (name === "--require-signed" && inline === undefined) {
      args.requireSigned = true;
      continue;
    }
    if (!VALUE_FLAGS.has(name)) return { ok: false, error: `unknown option "${token}"` };
    const value = inline ?? argv[index + 1];
    if (inline === undefined) index++;
    if (value === undefined || value === "" || (value.startsWith("-") && value !== "-")) return { ok: false, error: `${name} needs a value` };
    switch (name) {
      case "--database-url":
        args.databaseUrl = value;
        break;
      case "--file":
        args.file = value;
        break;
      case "--table":
        args.table = value;
        break;
      case "--checkpoint-table":
        args.checkpointTable = value;
        break;
      case "--public-key": {
        const eq = value.indexOf("=");
        args.publicKeys.push(eq > 0 ? { keyId: value.slice(0, eq), path: value.slice(eq + 1) } : { keyId: undefined, path: value });
        break;
      }
      case "--receipt":
        args.receipt = value;
        break;
      case "--format":
        if (value !== "plain" && value !== "json") return { ok: false, error: `--format must be one of plain, json (got "${value}")` };
        args.format = value;
        break;
      case "-o":
      case "--out":
        args.out = value;
        break;
      case "--cwd":
        args.cwd = value;
        break;
    }
  }
  if (action === undefined) return { ok: false, error: "no audit command given: use verify or export" };
  if (args.file !== undefined && args.databaseUrl !== undefined) return { ok: false, error: "give either --database-url or --file, not both" };
  if (args.file === undefined && args.databaseUrl === undefined) args.databaseUrl = io.env.DATABASE_URL || undefined;
  if (action === "export" && args.databaseUrl === undefined) return { ok: false, error: "audit export needs --database-url (or DATABASE_URL)" };
  if (action === "verify" && args.file === undefined && args.databaseUrl === undefined) return { ok: false, error: "audit verify needs --database-url (or DATABASE_URL) or --file" };
  if (action === "verify" && args.publicKeys.length === 0 && !args.skipSignatures) {
    return { ok: false, error: "audit verify needs --public-key <pem> (or --skip-signatures to check the hash links only)" };
  }
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/.test(args.table)) return { ok: false, error: `invalid --table "${args.table}"` };
  const checkpointTable = args.checkpointTable ?? `${args.table}_checkpoints`;
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/.test(checkpointTable)) return { ok: false, error: `invalid --checkpoint-table "${checkpointTable}"` };
  return { ok: true, args: { action, ...args, checkpointTable } };
}
