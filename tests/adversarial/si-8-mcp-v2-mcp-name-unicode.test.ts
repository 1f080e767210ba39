// SI-8 on the v2 endpoint's `Mcp-Name` header, with the variants the first suite (si-8-mcp-v2-mcp-name-header) leaves
// out: a header or a body name that differs from a hidden tool's name only in Unicode (a zero-width space, a
// no-break space, fullwidth letters, a Cyrillic look-alike, a decomposed accent against a composed one), sent as the
// base64 sentinel or as raw Latin-1 bytes. Tool names are compared byte for byte, so each variant names no tool; what
// matters is that the answer for the hidden tool's variant is byte for byte the answer for the same variant of an
// unknown name, and that the adapter's placeholder never shows.
import { agentMeta, createAgentRuntime, createCapabilityRegistry, defineGovernance, definePolicy, hide } from "@orpc-agent/core";
import { describe, expect, it } from "vitest";
import { closeEverythingAfterEachTest } from "../../packages/mcp/test/support/cleanup.js";
import { ap } from "../../packages/mcp/test/support/orpc.js";
import { SCOPE_REFUSED_TOOL_NAME } from "../../packages/mcp/src/http/scopes.js";
import { callMessage, ERAS, LEGACY_HEADERS, post, serveScoped, type Era } from "./support/mcp-v2.js";

closeEverythingAfterEachTest();

/** `vault_open` (scoped, hidden by a policy), `notes_purge` (hidden by a policy), `cheap_ping` (visible). */
function hidingApp() {
  const runs: string[] = [];
  const tool = (id: string, scoped: boolean) =>
    ap
      // `adapters.mcp.scopes` is read by the MCP adapter; AgentMeta does not type it yet.
      .meta(agentMeta({ description: `The ${id} tool.`, expose: { mcp: true }, sideEffect: "read", risk: "low", ...(scoped && { adapters: { mcp: { scopes: ["reports:export"] } } }) } as never))
      .handler(() => (runs.push(id), { ran: id }));
  const registry = createCapabilityRegistry({ cheap: { ping: tool("cheap.ping", false) }, vault: { open: tool("vault.open", true) }, notes: { purge: tool("notes.purge", false) } });
  const policies = [definePolicy("hidden", () => hide(), { phases: ["discovery", "invocation"], scope: { capabilities: { ids: ["vault.open", "notes.purge"] } } })];
  return { runtime: createAgentRuntime<{ tenant: string }>({ governance: defineGovernance({ registry, policies }) }), runs };
}

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const latin1 = (text: string) => Buffer.from(text, "utf8").toString("latin1");

/** How the name sent is spelled in the body and in the header. */
const VARIANTS: [string, (name: string) => { body: string; header: string | undefined }][] = [
  ["a zero-width space in the sentinel only", (name) => ({ body: name, header: `=?base64?${base64(`${name}\u200b`)}?=` })],
  ["a zero-width space in body and sentinel", (name) => ({ body: `${name}\u200b`, header: `=?base64?${base64(`${name}\u200b`)}?=` })],
  ["a zero-width space as raw bytes in the header", (name) => ({ body: name, header: latin1(`${name}\u200b`) })],
  ["a no-break space as a raw byte in the header", (name) => ({ body: name, header: `${name}\xa0` })],
  ["fullwidth letters in the body, no header", (name) => ({ body: name.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)), header: undefined })],
  ["a Cyrillic look-alike o in body and sentinel alike", (name) => ({ body: name.replace("o", "\u043e"), header: `=?base64?${base64(name.replace("o", "\u043e"))}?=` })],
  ["an accent composed in the body, decomposed in the sentinel", (name) => ({ body: `${name}\u00e9`, header: `=?base64?${base64(`${name}e\u0301`)}?=` })],
  ["the name with a trailing NUL in the sentinel", (name) => ({ body: name, header: `=?base64?${base64(`${name}\u0000`)}?=` })],
];

const modernHeaders = (header: string | undefined) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  ...(header !== undefined && { "mcp-name": header }),
});

async function answer(url: URL, era: Era, name: string, spell: (name: string) => { body: string; header: string | undefined }) {
  const { body, header } = spell(name);
  const headers = era === "modern" ? modernHeaders(header) : { ...LEGACY_HEADERS, ...(header !== undefined && { "mcp-name": header }) };
  const response = await post(url, JSON.stringify(callMessage(body, era)), headers, "tok-dana");
  const raw = await response.text();
  const kept: [string, string][] = [];
  response.headers.forEach((value, key) => void (key !== "date" && key !== "content-length" && kept.push([key, value])));
  // The name and its spellings are the only things allowed to differ: each is masked, longest first.
  let text = raw;
  for (const form of [body, header ?? "", name].filter((f) => f !== "").sort((a, b) => b.length - a.length)) text = text.replaceAll(form, "<sent>");
  for (const form of [JSON.stringify(body).slice(1, -1), JSON.stringify(name).slice(1, -1)]) text = text.replaceAll(form, "<sent>");
  return { status: response.status, headers: kept, text, raw };
}

describe.each(ERAS)("SI-8: Unicode look-alikes of a hidden tool's name answer as those of an unknown name (%s)", (era) => {
  describe.each(["vault_open", "notes_purge"])("SI-8: hidden tool %s", (hidden) => {
    it.each(VARIANTS)("SI-8: %s", async (_label, spell) => {
      const app = hidingApp();
      const { url } = await serveScoped(app);
      const forHidden = await answer(url, era, hidden, spell);
      const forUnknown = await answer(url, era, "no_such_tool", spell);
      expect(forHidden.raw).not.toContain(SCOPE_REFUSED_TOOL_NAME);
      expect(forHidden.status).toBeLessThan(500);
      expect({ ...forHidden, raw: undefined }).toEqual({ ...forUnknown, raw: undefined });
      expect(app.runs).toEqual([]);
    });
  });
});
