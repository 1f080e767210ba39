import { describe, expect, it } from "vitest";
import { parseAuditArgs } from "../../src/audit/parse-audit-args.js";

// `orpc-agent audit …` flags (docs/reference/cli.md): every misuse is a usage error (exit 2), never a silent default.
const env = { env: {} as Record<string, string | undefined> };

describe("parseAuditArgs", () => {
  it("reads verify with a database, tables, named and unnamed keys and the receipt", () => {
    const parsed = parseAuditArgs(
      ["verify", "--database-url", "postgres://h/db", "--table", "audit.events", "--public-key", "k1=old.pem", "--public-key=new.pem", "--receipt", "chn_x.1", "--require-signed", "--format", "json"],
      env,
    );
    expect(parsed).toEqual({
      ok: true,
      args: expect.objectContaining({
        action: "verify",
        databaseUrl: "postgres://h/db",
        table: "audit.events",
        checkpointTable: "audit.events_checkpoints",
        publicKeys: [{ keyId: "k1", path: "old.pem" }, { keyId: undefined, path: "new.pem" }],
        receipt: "chn_x.1",
        requireSigned: true,
        format: "json",
      }),
    });
  });

  it("takes DATABASE_URL when no source is given, and a file without it", () => {
    const fromEnv = parseAuditArgs(["export"], { env: { DATABASE_URL: "postgres://env/db" } });
    expect(fromEnv.ok && !fromEnv.help && fromEnv.args.databaseUrl).toBe("postgres://env/db");
    const file = parseAuditArgs(["verify", "--file", "t.jsonl", "--skip-signatures"], { env: { DATABASE_URL: "postgres://env/db" } });
    expect(file.ok && !file.help && [file.args.file, file.args.databaseUrl]).toEqual(["t.jsonl", undefined]);
  });

  it.each([
    [[], "no audit command"],
    [["rotate"], 'unknown audit command "rotate"'],
    [["verify", "export"], 'unexpected argument "export"'],
    [["verify", "--file", "t.jsonl"], "needs --public-key"],
    [["verify", "--public-key", "k.pem"], "needs --database-url"],
    [["export"], "audit export needs --database-url"],
    [["verify", "--file", "a", "--database-url", "b", "--skip-signatures"], "not both"],
    [["verify", "--file", "a", "--skip-signatures", "--table", "x; drop table y"], "invalid --table"],
    [["verify", "--file", "a", "--skip-signatures", "--format", "md"], "--format must be one of plain, json"],
    [["verify", "--file", "a", "--skip-signatures", "--frobnicate"], 'unknown option "--frobnicate"'],
    [["verify", "--file"], "--file needs a value"],
  ])("refuses %j (%s)", (argv, message) => {
    const parsed = parseAuditArgs(argv, env);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toContain(message);
  });

  it("answers --help", () => {
    expect(parseAuditArgs(["verify", "--help"], env)).toEqual({ ok: true, help: true });
  });
});
