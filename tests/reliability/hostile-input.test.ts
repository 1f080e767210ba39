// Hostile input (issue "Reliability under load, faults and hostile input"): 10 000 generated argument objects
// through the MCP Streamable HTTP endpoint (raw JSON-RPC batches with a valid bearer, loopback only) and 10 000
// through the AI SDK tools' execute. No crash; every answer a valid protocol result; no internal message, stack or
// handler sentinel in any answer (SI-9); Object.prototype untouched; malformed and oversized requests refused with
// protocol errors.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toAISDKTools } from "@orpc-agent/ai-sdk";
import { createTestRuntime, dana, ERROR_CODES, SENTINEL, TERMINAL_EVENTS, type TestRuntime } from "./support/app.js";
import { createAgent, jsonRpcMessages, post, type Listening } from "./support/http.js";
import { hostileArgumentsText, hostileArgumentsValue, materialize } from "./support/hostile.js";
import { openSession, serveMcp, type McpSession } from "./support/mcp.js";

const SEED = Number(process.env.RELIABILITY_SEED ?? 20_261_130);
const CALLS = 10_000;
const MAX_BATCH_MESSAGES = 100; // the SDK transport's batch limit
const MAX_BATCH_BYTES = 900_000; // under the endpoint's 1 MiB body limit
/** A stack frame or a source location: what SI-9 says never crosses. */
const STACK = /\n\s+at\s|\bat\s+\S+\s+\(|\.(?:ts|js|mjs|cjs):\d+:\d+/;
const CONCEALED = { code: "INTERNAL_ERROR", message: "The operation failed.", retryable: false };

/** Tools whose handlers return promptly; unknown and raw dotted names must look like any unknown tool (SI-8). */
const TOOLS = ["notes_echo", "notes_summary", "notes_raw", "notes_passthrough", "notes_count", "notes_fail", "notes_declared", "notes_orpcInternal", "orders_refund"];
const PROBES = ["does_not_exist", "notes.echo", "", "__proto__", "constructor"];

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join(",");

/** Checks one tool envelope (docs/architecture/spec/adapters.md#adapters-1-5, docs/architecture/spec/adapters.md#adapters-3-6); returns what is wrong, if anything. */
function envelopeProblem(envelope: unknown): string | undefined {
  if (typeof envelope !== "object" || envelope === null) return "envelope is not an object";
  const e = envelope as { status?: unknown; error?: Record<string, unknown>; approvalId?: unknown; message?: unknown };
  if (e.status === "ok" || e.status === "approval-required") return e.status === "approval-required" && (typeof e.approvalId !== "string" || typeof e.message !== "string") ? "approval without id or message" : undefined;
  if (e.status !== "error") return `unknown status ${String(e.status)}`;
  const error = e.error;
  if (typeof error !== "object" || error === null) return "error envelope without error";
  if (!ERROR_CODES.includes(error.code as never)) return `unknown code ${String(error.code)}`;
  if (typeof error.message !== "string" || typeof error.retryable !== "boolean") return "malformed model error";
  if (error.code === "INTERNAL_ERROR" && JSON.stringify(error) !== JSON.stringify(CONCEALED)) return "INTERNAL_ERROR not concealed";
  if ("details" in error && error.code !== "INPUT_INVALID") return `details on ${String(error.code)}`;
  if (STACK.test(JSON.stringify(error))) return "stack frame in error";
  return undefined;
}

describe("hostile input", () => {
  let app: TestRuntime;
  let server: Listening;
  const agent = createAgent(8);
  let prototypeBefore: string;

  beforeAll(async () => {
    prototypeBefore = prototypeKeys();
    app = createTestRuntime();
    server = await serveMcp(app.runtime);
  });

  afterAll(async () => {
    agent.destroy();
    await server?.close();
  });

  it("SI-9: 10 000 generated arguments over MCP HTTP: valid JSON-RPC answers, no internals, no pollution", async () => {
    const session: McpSession = await openSession(server.port, agent);
    const listed = jsonRpcMessages(await session.send(JSON.stringify({ jsonrpc: "2.0", id: "list", method: "tools/list" })))[0] as { result: { tools: { name: string }[] } };
    const names = listed.result.tools.map((t) => t.name);
    for (const tool of TOOLS) expect(names).toContain(tool);

    // Generated a chunk at a time (seeded per chunk), so the whole corpus never sits in memory at once.
    const isObjectById: boolean[] = [];
    const chunkOf = (index: number): string[][] => {
      const calls = fc.sample(fc.tuple(fc.constantFrom(...TOOLS, ...TOOLS, ...PROBES), hostileArgumentsText), { numRuns: MAX_BATCH_MESSAGES, seed: SEED + index });
      const batches: string[][] = [[]];
      let bytes = 0;
      calls.forEach(([name, args], i) => {
        const id = index * MAX_BATCH_MESSAGES + i;
        // The pass-through tool validates only the envelope object; its `data` carries the hostile value inward.
        const argumentsText = name === "notes_passthrough" ? `{"data":${args}}` : args;
        const parsed: unknown = JSON.parse(argumentsText);
        isObjectById[id] = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
        const text = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argumentsText}}}`;
        if (bytes + text.length > MAX_BATCH_BYTES) {
          batches.push([]);
          bytes = 0;
        }
        batches[batches.length - 1]!.push(text);
        bytes += text.length;
      });
      return batches;
    };
    const CHUNKS = CALLS / MAX_BATCH_MESSAGES;
    let posts = 0;

    const problems: string[] = [];
    const answered = new Set<number>();
    const tally = new Map<string, number>();
    const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
    const protocolErrors = new Set<string>();
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < CHUNKS) {
        for (const batch of chunkOf(next++)) {
          posts++;
          await sendBatch(batch);
        }
      }
    };
    const sendBatch = async (batch: string[]) => {
      const response = await session.send(`[${batch.join(",")}]`);
      if (response.status !== 200) problems.push(`batch answered ${response.status}: ${response.body.slice(0, 200)}`);
      if (response.body.includes(SENTINEL)) problems.push("sentinel in a response body");
      for (const message of jsonRpcMessages(response)) {
        const m = message as { jsonrpc?: unknown; id?: unknown; result?: { content?: { type: string; text: string }[]; structuredContent?: unknown; isError?: unknown }; error?: { code?: unknown; message?: unknown } };
        if (m.jsonrpc !== "2.0" || typeof m.id !== "number") {
          problems.push(`not a JSON-RPC response: ${JSON.stringify(m).slice(0, 200)}`);
          continue;
        }
        if (answered.has(m.id)) problems.push(`request ${m.id} answered twice`);
        answered.add(m.id);
        const sent = { isObject: isObjectById[m.id] === true };
        if (m.error !== undefined) {
          count(`jsonrpc-error ${String(m.error.code)}`);
          if (protocolErrors.size < 3) protocolErrors.add(String(m.error.message).slice(0, 160));
          if (typeof m.error.code !== "number" || typeof m.error.message !== "string") problems.push(`malformed JSON-RPC error for ${m.id}`);
          if (STACK.test(String(m.error.message))) problems.push(`stack frame in JSON-RPC error for ${m.id}`);
          // Only arguments that are not an object are refused at the protocol level (docs/architecture/spec/adapters.md#adapters-3-5).
          if (sent.isObject) problems.push(`object arguments refused as a protocol error (${m.id}): ${String(m.error.message).slice(0, 200)}`);
          continue;
        }
        const result = m.result!;
        const text = result.content?.[0]?.type === "text" ? result.content[0].text : undefined;
        if (text === undefined || result.content!.length !== 1) {
          problems.push(`result ${m.id} without one text content`);
          continue;
        }
        const envelope = result.structuredContent as { status?: string; error?: { code?: string } };
        if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(envelope)) problems.push(`text and structuredContent differ for ${m.id}`);
        if (result.isError !== (envelope.status === "error")) problems.push(`isError disagrees with status for ${m.id}`);
        const problem = envelopeProblem(envelope);
        if (problem !== undefined) problems.push(`${m.id}: ${problem}`);
        if (!sent.isObject) problems.push(`non-object arguments reached a tool (${m.id})`);
        count(envelope.status === "error" ? `error ${envelope.error?.code}` : String(envelope.status));
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    const seconds = (performance.now() - started) / 1000;

    for (let id = 0; id < CALLS; id++) if (!answered.has(id)) problems.push(`request ${id} never answered`);
    console.log(
      `[reliability] hostile MCP: ${CALLS} calls in ${posts} batched POSTs, ${seconds.toFixed(1)} s (${Math.round(CALLS / seconds)} calls/s), seed ${SEED}; outcomes ${JSON.stringify(Object.fromEntries([...tally].sort()))}`,
    );
    console.log(`[reliability] hostile MCP: protocol-level refusals (non-object arguments) read like ${JSON.stringify([...protocolErrors])}`);
    expect(problems.slice(0, 10)).toEqual([]);
    expect(answered.size).toBe(CALLS);
    expect(tally.get("ok") ?? 0).toBeGreaterThan(1_000);
    expect(tally.get("error INPUT_INVALID") ?? 0).toBeGreaterThan(100);

    // Nothing leaked into the process: no prototype gained a key, no object inherits a payload.
    expect(prototypeKeys()).toBe(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // Evidence stays payload-free and complete: one terminal event per execution (SI-10, SI-12).
    const terminals = new Map<string, number>();
    for (const event of app.events) if (TERMINAL_EVENTS.has(event.type)) terminals.set(event.executionId!, (terminals.get(event.executionId!) ?? 0) + 1);
    const requested = new Set(app.events.filter((e) => e.type === "capability.requested").map((e) => e.executionId));
    expect([...terminals.values()].every((n) => n === 1)).toBe(true);
    expect(terminals.size).toBe(requested.size);
    expect(JSON.stringify(app.events)).not.toContain(SENTINEL);
  });

  it("refuses malformed JSON-RPC and oversized bodies with protocol errors, before any tool runs", async () => {
    const session = await openSession(server.port, agent);
    const executionsBefore = app.events.length;
    const send = (body: string, headers = session.headers) => post(server.port, body, headers, { agent });
    const call = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"notes_count","arguments":{"n":1}}}`;
    const cases: { name: string; run: () => Promise<{ status: number; body: string; headers: Record<string, unknown> }>; status: number; code?: number }[] = [
      { name: "not JSON", run: () => send("this is not json"), status: 400, code: -32700 },
      { name: "truncated JSON", run: () => send('{"jsonrpc":"2.0","id":1,"method":"tools/call"'), status: 400, code: -32700 },
      { name: "NaN literal", run: () => send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_count","arguments":{"n":NaN}}}'), status: 400, code: -32700 },
      { name: "wrong jsonrpc version", run: () => send('{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{}}'), status: 400, code: -32700 },
      { name: "id of the wrong type", run: () => send('{"jsonrpc":"2.0","id":{"x":1},"method":"tools/call","params":{}}'), status: 400, code: -32700 },
      { name: "a batch over 100 messages", run: () => send(`[${Array.from({ length: 101 }, (_, i) => call(1_000_000 + i)).join(",")}]`), status: 400, code: -32600 },
      { name: "wrong content type", run: () => send(call(1), { ...session.headers, "content-type": "text/plain" }), status: 415 },
      { name: "no Accept for SSE", run: () => send(call(1), { ...session.headers, accept: "application/json" }), status: 406 },
      { name: "unknown session", run: () => send(call(1), { ...session.headers, "mcp-session-id": "not-a-session" }), status: 404 },
      { name: "missing bearer", run: () => send(call(1), { ...session.headers, authorization: "" }), status: 401 },
      { name: "unknown bearer", run: () => send(call(1), { ...session.headers, authorization: "Bearer tok-mallory" }), status: 401 },
      { name: "oversized body (Content-Length)", run: () => send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_echo","arguments":{"s":"${"x".repeat(2 * 1024 * 1024)}"}}}`), status: 413 },
      {
        name: "oversized body (chunked)",
        run: () => post(server.port, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"s":"${"x".repeat(2 * 1024 * 1024)}"}}}`, session.headers, { chunked: true }),
        status: 413,
      },
      { name: "nesting deeper than the body limit", run: () => send("[".repeat(600_000) + "]".repeat(600_000)), status: 413 },
    ];
    const seen: string[] = [];
    for (const c of cases) {
      const response = await c.run();
      seen.push(`${c.name}: ${response.status}`);
      expect(response.status, c.name).toBe(c.status);
      expect(response.body, c.name).not.toMatch(STACK);
      const body = JSON.parse(response.body) as { jsonrpc: string; error: { code: number; message: string }; id: unknown };
      expect(body.jsonrpc, c.name).toBe("2.0");
      expect(typeof body.error.message, c.name).toBe("string");
      if (c.code !== undefined) expect(body.error.code, c.name).toBe(c.code);
    }
    // An unknown method is a JSON-RPC error in a 200 answer, as the protocol wants.
    const unknown = jsonRpcMessages(await send('{"jsonrpc":"2.0","id":7,"method":"tools/explode","params":{}}'))[0] as { error: { code: number } };
    expect(unknown.error.code).toBe(-32601);
    console.log(`[reliability] malformed requests refused: ${seen.join("; ")}`);
    // Refusals precede the runtime: no execution started for any of them.
    expect(app.events.slice(executionsBefore).filter((e) => e.type === "capability.requested")).toEqual([]);
  });

  it("SI-9: 10 000 generated in-process arguments through AI SDK tools' execute: valid results, no internals", async () => {
    // Input with a `then` function is a thenable, and oRPC's call adopts it: such a call settles only by the attempt
    // timer (SI-12). A short timeout keeps those bounded here; every other handler answers in microseconds.
    const local = createTestRuntime({ defaults: { timeoutMs: 250 } });
    const tools = (await toAISDKTools(local.runtime, { actor: dana, context: {} })) as Record<string, { execute?: (args: unknown, options: unknown) => Promise<unknown> }>;
    for (const tool of TOOLS) expect(Object.keys(tools)).toContain(tool);
    const inProcessTools = TOOLS.filter((t) => t !== "notes_echo"); // echo returns the hostile value itself as data
    const CHUNK = 250;
    const problems: string[] = [];
    const tally = new Map<string, number>();
    const started = performance.now();
    for (let offset = 0; offset < CALLS; offset += CHUNK) {
      const chunk = fc.sample(fc.tuple(fc.constantFrom(...inProcessTools), hostileArgumentsValue, fc.boolean()), { numRuns: CHUNK, seed: SEED + offset });
      const results = await Promise.all(
        chunk.map(async ([name, args, wrap], i) => {
          const value = materialize(args);
          const input = wrap || name === "notes_passthrough" ? { data: value } : value;
          try {
            return await tools[name]!.execute!(input, { toolCallId: `call_${offset + i}`, messages: [] });
          } catch (error) {
            problems.push(`execute rejected for ${name}: ${String(error).slice(0, 100)}`);
            return undefined;
          }
        }),
      );
      for (const result of results) {
        if (result === undefined) continue;
        let text: string;
        try {
          text = JSON.stringify(result);
        } catch {
          problems.push("result is not JSON-serializable");
          continue;
        }
        if (text.includes(SENTINEL)) problems.push("sentinel in a tool result");
        const problem = envelopeProblem(result);
        if (problem !== undefined) problems.push(problem);
        const r = result as { status: string; error?: { code: string } };
        tally.set(r.status === "error" ? `error ${r.error?.code}` : r.status, (tally.get(r.status === "error" ? `error ${r.error?.code}` : r.status) ?? 0) + 1);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`[reliability] hostile AI SDK: ${CALLS} executes in ${seconds.toFixed(1)} s, seed ${SEED}; outcomes ${JSON.stringify(Object.fromEntries([...tally].sort()))}`);
    expect(problems.slice(0, 10)).toEqual([]);
    expect([...tally.values()].reduce((a, b) => a + b, 0)).toBe(CALLS);
    expect(prototypeKeys()).toBe(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(local.events)).not.toContain(SENTINEL);
  });
});
