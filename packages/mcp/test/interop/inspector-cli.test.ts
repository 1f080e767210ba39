// The MCP Inspector CLI (`@modelcontextprotocol/inspector --cli`) drives the v2 endpoint as a third, independent
// client: over Streamable HTTP on loopback and over stdio, in both of its protocol eras (`legacy` = 2025-era
// initialize, `modern` = 2026-07-28). The Inspector needs Node >= 22.19, so on the Node 20.19 leg it runs on a Node 24
// binary from scripts/install-node.sh; the server under test stays on the leg's own Node.
//
// Time limits: the Inspector gives an ad-hoc target 15 s to connect, which a loaded machine (seven Inspectors and
// their servers started at once on two cores) can exceed without anything being wrong. Every run passes a generous
// --connect-timeout and each test a matching limit, so only load is waited out: a refusal, a wrong answer or a
// crash still ends the run at once, with its own exit code and output.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../support/app.js";
import { closeAfterTest, closeEverythingAfterEachTest } from "../support/cleanup.js";
import { createInspectorApp } from "./inspector-app.js";
import { createTypedApp } from "../server/typed-app.js";
import { nowInSeconds, serveApp } from "../support/handler.js";
import { bundleServer } from "../support/bundle-server.js";

closeEverythingAfterEachTest();

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
// The package's `mcp-inspector` bin (it has no exports map, so its package.json resolves).
const inspectorBin = join(dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json")), "clients/launcher/build/index.js");
/** How long the Inspector waits for a server to connect (its own default is 15 s), and a test for its runs. */
const CONNECT_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = CONNECT_TIMEOUT_MS + 60_000;

let inspectorNode: string;
let home: string;
let stdioServer: string[];

beforeAll(async () => {
  const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
  inspectorNode =
    major > 22 || (major === 22 && minor >= 19)
      ? process.execPath
      : execFileSync("sh", [join(packageDir, "../../scripts/install-node.sh"), "24"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  // The Inspector keeps a catalog, client config and OAuth state under $HOME/.mcp-inspector: never the developer's.
  home = mkdtempSync(join(tmpdir(), "orpc-agent-inspector-"));
  // The stdio target, bundled once: each Inspector run starts its own server process.
  stdioServer = [process.execPath, await bundleServer(fileURLToPath(new URL("./inspector-stdio-server.ts", import.meta.url)), join(home, "stdio-server"))];
}, 180_000);

afterAll(() => rmSync(home, { recursive: true, force: true }));

type Run = { code: number | null; stdout: string; stderr: string };

/** Spawns `mcp-inspector --cli` quietly with JSON output; resolves with its exit code and both streams. */
function inspector(args: string[], onSpawn?: (child: ChildProcess) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(inspectorNode, [inspectorBin, "--cli", "--format", "json", "--quiet", "--connect-timeout", String(CONNECT_TIMEOUT_MS), ...args], {
      cwd: packageDir,
      env: { ...process.env, HOME: home, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    closeAfterTest(() => void child.kill());
    onSpawn?.(child);
  });
}

/** The Inspector's result payload (exit 0, or 5 when the tool answered isError). */
function result(run: Run): { tools?: { name: string }[]; structuredContent?: unknown; isError?: boolean; content?: { text?: string }[] } {
  expect(run.stdout, run.stderr).not.toBe("");
  return (JSON.parse(run.stdout) as { result: never }).result;
}

/** The Inspector's error envelope (stderr under --quiet). */
function failure(run: Run): { code: string; message: string } {
  return (JSON.parse(run.stderr.trim().split("\n").at(-1)!) as { error: { code: string; message: string } }).error;
}

const ERAS = [
  { era: "legacy", revision: "2025-11-25" },
  { era: "modern", revision: "2026-07-28" },
] as const;

describe.each(ERAS)("Inspector CLI over Streamable HTTP, $era era ($revision)", { timeout: TEST_TIMEOUT_MS }, ({ era }) => {
  const http = (url: URL, token: string | undefined, ...args: string[]) => httpWith(undefined, url, token, ...args);
  const httpWith = (onSpawn: ((child: ChildProcess) => void) | undefined, url: URL, token: string | undefined, ...args: string[]) =>
    inspector([url.href, "--transport", "http", "--protocol-era", era, "--stored-auth-only", ...(token === undefined ? [] : ["--header", `Authorization: Bearer ${token}`]), ...args], onSpawn);

  it("lists per actor: dana and the admin see different catalogs", async () => {
    const { url } = await serveApp(createInspectorApp());
    const [danaList, adminList] = await Promise.all([http(url, "tok-dana", "--method", "tools/list"), http(url, "tok-admin", "--method", "tools/list")]);
    expect(danaList.code).toBe(0);
    expect(adminList.code).toBe(0);
    expect(result(danaList).tools!.map((tool) => tool.name)).toEqual(["notes_whoami", "notes_count", "orders_refund", "accounts_close"]);
    expect(result(adminList).tools!.map((tool) => tool.name)).toEqual(["notes_whoami", "notes_count", "orders_refund", "accounts_close", "admin_purge"]);
  });

  it("calls: ok, approval required, denied and invalid input, in the runtime's envelope", async () => {
    const { url } = await serveApp(createInspectorApp());
    const call = (name: string, args: Record<string, unknown> = {}) => http(url, "tok-dana", "--method", "tools/call", "--tool-name", name, "--tool-args-json", JSON.stringify(args));
    const [ok, refund, denied, invalid] = await Promise.all([
      call("notes_whoami"),
      call("orders_refund", { orderId: "o1", amount: 5 }),
      call("accounts_close"),
      call("notes_count", {}),
    ]);
    expect(ok.code).toBe(0);
    expect(result(ok).structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "t1" } });
    expect(JSON.parse(result(ok).content![0]!.text!)).toEqual(result(ok).structuredContent);

    expect(refund.code).toBe(0);
    expect(result(refund).structuredContent).toMatchObject({ status: "approval-required", approvalId: expect.stringMatching(/^apr_/) });

    // The Inspector exits 5 (tool_is_error) on isError results, and still prints the result.
    expect(denied.code).toBe(5);
    expect(result(denied)).toMatchObject({ isError: true, structuredContent: { status: "error", error: { code: "POLICY_DENIED", message: "Ask a person to close accounts." } } });
    expect(failure(denied).code).toBe("tool_is_error");

    expect(invalid.code).toBe(5);
    expect(result(invalid)).toMatchObject({ isError: true, structuredContent: { status: "error", error: { code: "INPUT_INVALID" } } });
  });

  it("conceals: a hidden tool is refused exactly as an unknown one (SI-8)", async () => {
    const { url } = await serveApp(createInspectorApp());
    const [hidden, unknown, asAdmin] = await Promise.all([
      http(url, "tok-dana", "--method", "tools/call", "--tool-name", "admin_purge"),
      http(url, "tok-dana", "--method", "tools/call", "--tool-name", "no_such_tl"),
      http(url, "tok-admin", "--method", "tools/call", "--tool-name", "admin_purge"),
    ]);
    // The hidden tool is real: its owner calls it.
    expect(result(asAdmin).structuredContent).toEqual({ status: "ok", data: { purged: true } });
    // The Inspector resolves the name against the actor's own tools/list before calling, so both refusals are
    // `tool_not_found`; the outputs differ only by the name typed.
    expect(hidden.code).toBe(unknown.code);
    expect(failure(hidden).code).toBe("tool_not_found");
    expect(hidden.stdout).toBe(unknown.stdout);
    expect(hidden.stderr.replaceAll("admin_purge", "<name>")).toBe(unknown.stderr.replaceAll("no_such_tl", "<name>"));
  });

  it("refuses no token, a bad, expired or wrong-audience token as auth_required (401), an under-scoped one as insufficient scope (403)", async () => {
    const tokens = {
      "tok-expired": { expiresAt: nowInSeconds() - 10 },
      "tok-elsewhere": { resource: new URL("https://other.example.com/mcp") },
      "tok-noscope": { scopes: [] },
    };
    const { url } = await serveApp(createInspectorApp(), { requiredScopes: ["mcp"] }, tokens);
    const runs = await Promise.all([undefined, "tok-nobody", "tok-expired", "tok-elsewhere", "tok-noscope", "tok-dana"].map((token) => http(url, token, "--method", "tools/list")));
    const [none, bad, expired, elsewhere, noscope, dana] = runs.map((run) => ({ code: run.code, error: run.code === 0 ? undefined : failure(run) }));
    expect(dana).toEqual({ code: 0, error: undefined });
    for (const refused of [none, bad, expired, elsewhere]) expect(refused).toMatchObject({ code: 3, error: { code: "auth_required" } });
    // 403 insufficient_scope is no login prompt for the Inspector: a general failure naming the scope to step up to.
    expect(noscope).toEqual({ code: 1, error: { code: "error", message: 'Insufficient scope: required "mcp"' } });
    for (const run of runs.slice(0, 5)) expect(run.stdout).toBe("");
  });

  it("--strict: the only portability finding is the open data of tools whose capability declares no output schema", async () => {
    const { url } = await serveApp(createTypedApp());
    const run = await http(url, "tok-dana", "--method", "tools/list", "--strict");
    expect(run.code, run.stderr).toBe(0);
    // Each finding: `Warning: tool "<name>"` then `  Path: <where>`.
    const findings = [...run.stderr.matchAll(/^(Warning|Error): tool "([^"]+)"\n\s+Path: (\S+)/gm)].map(([, level, tool, path]) => ({ level, tool, path }));
    expect(findings).toEqual(
      ["refunds_masked", "refunds_plain", "forms_own", "forms_issues"].map((tool) => ({ level: "Warning", tool, path: "outputSchema.oneOf[0].properties.data" })),
    );
    expect(run.stderr).toContain("0 errors, 4 warnings across 4 tools.");
  });

  it("cancellation: the Inspector dying mid-call closes the stream, which reaches the handler as an abort", async () => {
    const app = createTestApp();
    const { url } = await serveApp(app);
    let child!: ChildProcess;
    const run = httpWith((spawned) => (child = spawned), url, "tok-dana", "--method", "tools/call", "--tool-name", "notes_slow");
    await app.interruptions.started("notes.slow");
    // SIGKILL: no chance to send anything; only the closed connection can tell the server.
    child.kill("SIGKILL");
    expect(await app.interruptions.settled("notes.slow")).toEqual({ aborted: true });
    expect((await run).code).toBe(null);
  });
});

describe.each(ERAS)("Inspector CLI over stdio, $era era ($revision)", { timeout: TEST_TIMEOUT_MS }, ({ era }) => {
  const stdio = (...args: string[]) => inspector(["--protocol-era", era, ...args, "--", ...stdioServer]);

  it("lists and calls: ok, approval required, denied, invalid input, and conceals a hidden tool", async () => {
    const call = (name: string, args: Record<string, unknown> = {}) => stdio("--method", "tools/call", "--tool-name", name, "--tool-args-json", JSON.stringify(args));
    const [list, ok, refund, denied, invalid, hidden, unknown] = await Promise.all([
      stdio("--method", "tools/list"),
      call("notes_whoami"),
      call("orders_refund", { orderId: "o1", amount: 5 }),
      call("accounts_close"),
      call("notes_count", {}),
      call("admin_purge"),
      call("no_such_tl"),
    ]);
    // stdio carries no credentials: the server runs as one fixed actor (dana), whose catalog lacks admin_purge.
    expect(result(list).tools!.map((tool) => tool.name)).toEqual(["notes_whoami", "notes_count", "orders_refund", "accounts_close"]);
    expect(result(ok).structuredContent).toEqual({ status: "ok", data: { actor: "u_dana", tenant: "stdio" } });
    expect(result(refund).structuredContent).toMatchObject({ status: "approval-required" });
    expect(result(denied).structuredContent).toMatchObject({ status: "error", error: { code: "POLICY_DENIED" } });
    expect(result(invalid).structuredContent).toMatchObject({ status: "error", error: { code: "INPUT_INVALID" } });
    expect([list.code, ok.code, refund.code, denied.code, invalid.code]).toEqual([0, 0, 0, 5, 5]);
    expect(hidden.code).toBe(unknown.code);
    expect(failure(hidden).code).toBe("tool_not_found");
    expect(hidden.stdout).toBe(unknown.stdout);
    expect(hidden.stderr.replaceAll("admin_purge", "<name>")).toBe(unknown.stderr.replaceAll("no_such_tl", "<name>"));
  });
});
