// SI-8 on the MCP v2 endpoint's SEP-2243 `Mcp-Name` header: the header is checked against the body's tool name, and
// that check must answer a tool the caller cannot see exactly as it answers a name that does not exist. The attacks
// send every header variant (absent, another tool's name, the base64 sentinel form, a broken sentinel, another case,
// padded with whitespace) for hidden tools of each kind: hidden by a policy, unlisted or dropped at discovery,
// unexposed on mcp, and scoped tools whose scope the token lacks (the ones the adapter renames before the SDK sees
// them). Once the name the client sent is masked, the answer must be byte for byte the unknown name's, and the
// adapter's internal placeholder must never reach the client.
import { describe, expect, it } from "vitest";
import { agentMeta, allow, createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy, hide } from "@orpc-agent/core";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { SCOPE_REFUSED_TOOL_NAME } from "../../packages/mcp/src/http/scopes.js";
import { callMessage, ERAS, LEGACY_HEADERS, post, serveScoped, type Era } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

const only = (id: string) => ({ capabilities: { ids: [id] } });

/** Six tools a scope-less token cannot see, one it can (`cheap_ping`), and a run log. */
function hidingApp() {
  const runs: string[] = [];
  const tool = (id: string, options: { scoped?: boolean; exposed?: boolean } = {}) =>
    ap
      .meta(
        // `adapters.mcp.scopes` is read by the MCP adapter; AgentMeta does not type it yet.
        agentMeta({
          description: `The ${id} tool.`,
          expose: options.exposed === false ? { direct: true } : { mcp: true },
          sideEffect: "read",
          risk: "low",
          ...(options.scoped === true && { adapters: { mcp: { scopes: ["reports:export"] } } }),
        } as never),
      )
      .handler(() => (runs.push(id), { ran: id }));
  const registry = createCapabilityRegistry({
    cheap: { ping: tool("cheap.ping") },
    vault: { open: tool("vault.open", { scoped: true }) },
    ledger: { close: tool("ledger.close", { scoped: true }) },
    audit: { dump: tool("audit.dump", { scoped: true }) },
    notes: { purge: tool("notes.purge") },
    archive: { read: tool("archive.read", { exposed: false }) },
    secrets: { rotate: tool("secrets.rotate", { scoped: true, exposed: false }) },
  });
  const policies = [
    definePolicy("vault-hidden", () => hide(), { phases: ["discovery", "invocation"], scope: only("vault.open") }),
    definePolicy("ledger-unlisted", () => hide(), { phases: ["discovery"], scope: only("ledger.close") }),
    definePolicy("ledger-callable", () => allow(), { phases: ["invocation"], scope: only("ledger.close") }),
    definePolicy(
      "audit-lookup",
      () => {
        throw new Error("directory unavailable");
      },
      { phases: ["discovery"], scope: only("audit.dump") },
    ),
    definePolicy("notes-hidden", () => hide(), { phases: ["discovery", "invocation"], scope: only("notes.purge") }),
  ];
  const runtime = createAgentRuntime<{ tenant: string }>({ governance: defineGovernance({ registry, policies }) });
  return { runtime, runs };
}

const HIDDEN = [
  ["a scoped tool hidden by a policy on both phases", "vault_open"],
  ["a scoped tool unlisted at discovery, callable at invocation", "ledger_close"],
  ["a scoped tool dropped by a throwing discovery policy", "audit_dump"],
  ["a scoped tool addressed by its raw registry id", "vault.open"],
  ["an unscoped tool hidden by a policy", "notes_purge"],
  ["a tool not exposed on mcp", "archive_read"],
  ["a scoped tool not exposed on mcp", "secrets_rotate"],
] as const;
const UNKNOWN = "no_such_tool";

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

/** Each variant's header for the name sent, and whether the header value is derived from that name (then masked). */
const VARIANTS: [string, (name: string) => string | undefined, boolean][] = [
  ["absent", () => undefined, false],
  ["naming a visible tool", () => "cheap_ping", false],
  ["naming another unknown tool", () => "other_tool", false],
  ["the base64 sentinel of the name", (name) => `=?base64?${base64(name)}?=`, true],
  ["the base64 sentinel of a visible tool", () => `=?base64?${base64("cheap_ping")}?=`, false],
  ["a broken base64 sentinel", () => "=?base64?***?=", false],
  ["the name in upper case", (name) => name.toUpperCase(), true],
  ["the name padded with whitespace", (name) => ` ${name}\t`, false],
  ["the name itself", (name) => name, false],
];

const modernHeaders = (header: string | undefined) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  ...(header !== undefined && { "mcp-name": header }),
});

/** Status, headers (the date and a length that follows the name's aside) and body, with the name sent masked. */
async function maskedAnswer(url: URL, era: Era, name: string, header: string | undefined, headerDerived: boolean, token = "tok-dana") {
  const body = JSON.stringify(callMessage(name, era));
  const response = await post(url, body, era === "modern" ? modernHeaders(header) : { ...LEGACY_HEADERS, ...(header !== undefined && { "mcp-name": header }) }, token);
  const text = await response.text();
  const headers: [string, string][] = [];
  response.headers.forEach((value, key) => void (key !== "date" && key !== "content-length" && headers.push([key, value])));
  let masked = text;
  if (headerDerived && header !== undefined) masked = masked.replaceAll(header.trim(), "<header>");
  masked = masked.replaceAll(name, "<name>");
  return { status: response.status, headers, text: masked, raw: text };
}

describe.each(ERAS)("SI-8: the Mcp-Name header answers a hidden tool as an unknown one (%s)", (era) => {
  describe.each(HIDDEN)("SI-8: %s", (_label, hidden) => {
    it.each(VARIANTS)("SI-8: Mcp-Name %s: the answer equals an unknown name's, no placeholder in it", async (_variant, headerOf, derived) => {
      const app = hidingApp();
      const { url } = await serveScoped(app);
      const forHidden = await maskedAnswer(url, era, hidden, headerOf(hidden), derived);
      const forUnknown = await maskedAnswer(url, era, UNKNOWN, headerOf(UNKNOWN), derived);
      expect(forHidden.raw).not.toContain(SCOPE_REFUSED_TOOL_NAME);
      expect({ ...forHidden, raw: undefined }).toEqual({ ...forUnknown, raw: undefined });
      expect(forHidden.status).toBeLessThan(500);
      expect(app.runs).toEqual([]);
    });
  });
});

describe.each(ERAS)("SI-8: a malformed call to a hidden scoped tool answers as an unknown one (%s)", (era) => {
  it.each([
    ["arguments that are no object", { arguments: "open" }],
    ["arguments that are an array", { arguments: ["open"] }],
    ["a stray params field", { extra: { nested: true } }],
  ])("SI-8: %s: the answer equals an unknown name's, no placeholder in it", async (_label, params) => {
    const app = hidingApp();
    const { url } = await serveScoped(app);
    const send = async (name: string) => {
      const message = callMessage(name, era);
      const body = JSON.stringify({ ...message, params: { ...message.params, ...params } });
      const response = await post(url, body, era === "modern" ? modernHeaders(name) : LEGACY_HEADERS, "tok-dana");
      const text = await response.text();
      return { status: response.status, type: response.headers.get("content-type"), text: text.replaceAll(name, "<name>"), raw: text };
    };
    const forHidden = await send("vault_open");
    const forUnknown = await send(UNKNOWN);
    expect(forHidden.raw).not.toContain(SCOPE_REFUSED_TOOL_NAME);
    expect({ ...forHidden, raw: undefined }).toEqual({ ...forUnknown, raw: undefined });
    expect(app.runs).toEqual([]);
  });
});

describe("SI-8: the header check itself still holds for the hidden tool", () => {
  it("SI-8: a mismatching Mcp-Name on a hidden scoped tool is the -32020 header mismatch quoting the client's own name", async () => {
    const app = hidingApp();
    const { url } = await serveScoped(app);
    const response = await post(url, JSON.stringify(callMessage("vault_open", "modern")), modernHeaders("cheap_ping"), "tok-dana");
    const message = (await response.json()) as { error?: { code?: number; message?: string } };
    expect(response.status).toBe(400);
    expect(message.error?.code).toBe(-32020);
    expect(message.error?.message).toContain('params.name="vault_open"');
    expect(app.runs).toEqual([]);
  });

  it("SI-8: the base64 sentinel form of a visible tool's name still calls it", async () => {
    const app = hidingApp();
    const { url } = await serveScoped(app);
    const response = await post(url, JSON.stringify(callMessage("cheap_ping", "modern")), modernHeaders(`=?base64?${base64("cheap_ping")}?=`), "tok-dana");
    expect(response.status).toBe(200);
    await response.text();
    expect(app.runs).toEqual(["cheap.ping"]);
  });

  it("SI-8: with the scope held, the scoped tool hidden only from the listing runs under a matching header", async () => {
    const app = hidingApp();
    const { url } = await serveScoped(app);
    const response = await post(url, JSON.stringify(callMessage("ledger_close", "modern")), modernHeaders("ledger_close"), "tok-dana-scoped");
    expect(response.status).toBe(200);
    await response.text();
    expect(app.runs).toEqual(["ledger.close"]);
  });
});
