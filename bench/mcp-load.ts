// The load of mcp-throughput.ts, in a process of its own so the servers measured do not also pay for their
// clients: per subject, `clients` 2025-era MCP clients (the SDK v1 Client over Streamable HTTP), each calling
// the same read tool in a loop until the run's calls are made. Driven over IPC by the parent.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export type LoadCommand =
  | { type: "connect"; subjects: Record<string, string>; clients: number }
  | { type: "run"; subject: string; calls: number }
  | { type: "close" };
export type LoadReply = { type: "ready" } | { type: "done"; ns: number; failures: number; firstFailure?: string } | { type: "closed" };

const clients = new Map<string, Client[]>();
const call = { name: "g0_c0", arguments: { id: "x" } };

async function connectAll(subjects: Record<string, string>, perSubject: number): Promise<void> {
  for (const [subject, url] of Object.entries(subjects)) {
    const list: Client[] = [];
    for (let i = 0; i < perSubject; i++) {
      const client = new Client({ name: `load-${i}`, version: "0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      list.push(client);
    }
    clients.set(subject, list);
  }
}

/** Every client calls in a loop until `calls` calls are made; answers that are not an ok envelope count as failures. */
async function run(subject: string, calls: number): Promise<LoadReply> {
  let started = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const begin = process.hrtime.bigint();
  await Promise.all(
    clients.get(subject)!.map(async (client) => {
      while (started < calls) {
        started++;
        try {
          const result = (await client.callTool(call)) as { isError?: boolean; structuredContent?: { status?: string } };
          if (result.isError || result.structuredContent?.status !== "ok") {
            failures++;
            firstFailure ??= JSON.stringify(result).slice(0, 300);
          }
        } catch (error) {
          failures++;
          firstFailure ??= String(error);
        }
      }
    }),
  );
  return { type: "done", ns: Number(process.hrtime.bigint() - begin), failures, ...(firstFailure === undefined ? {} : { firstFailure }) };
}

process.on("message", (message: LoadCommand) => {
  const reply = (value: LoadReply) => process.send!(value);
  if (message.type === "connect") void connectAll(message.subjects, message.clients).then(() => reply({ type: "ready" }));
  else if (message.type === "run") void run(message.subject, message.calls).then(reply);
  else {
    void Promise.allSettled([...clients.values()].flat().map((client) => client.close())).then(() => {
      reply({ type: "closed" });
      process.disconnect();
    });
  }
});
