import fc from "fast-check";
import { it } from "vitest";
import { createTestRuntime } from "./support/app.js";
import { createAgent, jsonRpcMessages } from "./support/http.js";
import { hostileArgumentsText } from "./support/hostile.js";
import { openSession, serveMcp } from "./support/mcp.js";

it("probe", async () => {
  const app = createTestRuntime({ keepEvents: false });
  const server = await serveMcp(app.runtime);
  const agent = createAgent(8);
  const session = await openSession(server.port, agent);
  const TOOLS = ["notes_echo", "notes_summary", "notes_raw", "notes_passthrough", "notes_count", "notes_fail", "orders_refund"];
  const samples = fc.sample(fc.tuple(fc.constantFrom(...TOOLS), hostileArgumentsText), { numRuns: 600, seed: 1 });
  const timings: { ms: number; tool: string; len: number; head: string }[] = [];
  for (let i = 0; i < samples.length; i++) {
    const [name, args] = samples[i]!;
    const text = `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${name === "notes_passthrough" ? `{"data":${args}}` : args}}}`;
    const t = performance.now();
    const r = await session.send(text);
    jsonRpcMessages(r);
    timings.push({ ms: performance.now() - t, tool: name, len: text.length, head: args.slice(0, 60) });
  }
  timings.sort((a, b) => b.ms - a.ms);
  console.log(timings.slice(0, 15));
  console.log("total", timings.reduce((a, b) => a + b.ms, 0));
  await server.close();
});
