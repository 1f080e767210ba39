// The task board's HTTP app: the page (the Vite build of ../client), its JSON endpoints, the chat endpoint useChat
// talks to, and the event stream that updates cards in place. "Signing in" is the `as` query parameter here; a
// real app uses its own session, and takes the actor from it, never from the request body.
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize } from "node:path";
import { APPROVAL_PART_TYPE } from "@orpc-agent/ai-sdk";
import type { AgentRuntime } from "@orpc-agent/core";
import { pipeUIMessageStreamToResponse, type UIMessage, type UIMessageChunk } from "ai";
import type { AppContext } from "../api/context.js";
import { boardView, type Store } from "../domain/store.js";
import { streamChat } from "../agent/board-agent.js";
import { people } from "../agent/people.js";
import { createApprovalDesk, type CardOrigins } from "./approvals.js";
import { createEventHub } from "./events.js";

const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".png": "image/png", ".svg": "image/svg+xml" };

export function createBoardApp(options: { runtime: AgentRuntime<AppContext>; store: Store; clientDir: string }) {
  const { runtime, store, clientDir } = options;
  const origins: CardOrigins = new Map();
  const desk = createApprovalDesk(runtime, store, origins);
  const events = createEventHub();

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  async function body(req: IncomingMessage): Promise<unknown> {
    let text = "";
    for await (const chunk of req) text += chunk;
    return text ? JSON.parse(text) : {};
  }

  async function chat(req: IncomingMessage, res: ServerResponse, actorId: string): Promise<void> {
    const { messages } = (await body(req)) as { messages: UIMessage[] };
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const stream = await streamChat({ runtime, store, actor: people[actorId]!, messages, signal: abort.signal });
    const tapped = stream.pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        transform(chunk, controller) {
          // Remember each card's tool call, so its outcome (decided elsewhere) lands on the same card.
          if (chunk.type === APPROVAL_PART_TYPE) {
            const { data } = chunk as unknown as { data: { approvalId: string; toolCallId?: string; toolName?: string } };
            origins.set(data.approvalId, { toolCallId: data.toolCallId, toolName: data.toolName });
          }
          controller.enqueue(chunk);
        },
        // A finished turn may have changed the board (a move on your own board runs at once).
        flush: () => events.send("everyone", { type: "board" }),
      }),
    );
    pipeUIMessageStreamToResponse({ response: res, stream: tapped });
  }

  async function decide(req: IncomingMessage, res: ServerResponse, id: string, actorId: string): Promise<void> {
    const { decision, comment } = (await body(req)) as { decision?: string; comment?: unknown };
    if (decision !== "approved" && decision !== "rejected") return json(res, 400, { ok: false, text: "decision must be approved or rejected" });
    const note = typeof comment === "string" ? comment.trim().slice(0, 500) : "";
    const result = await desk.decide(id, actorId, decision, note || undefined);
    if (result.card && result.requesterId) {
      events.send(result.requesterId, { type: "approval", part: result.card });
      events.send("everyone", { type: "board" });
    }
    json(res, result.ok ? 200 : 409, { ok: result.ok, text: result.text });
  }

  async function asset(res: ServerResponse, pathname: string): Promise<void> {
    const file = normalize(join(clientDir, pathname === "/" ? "index.html" : pathname));
    if (!file.startsWith(clientDir)) return json(res, 404, { error: "not found" });
    try {
      const content = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(content);
    } catch {
      json(res, 404, { error: "not found" });
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const as = url.searchParams.get("as") ?? "";
    if (!url.pathname.startsWith("/api/")) return asset(res, url.pathname);
    if (!people[as]) return json(res, 401, { error: "Sign in first: ?as=u_ada, u_ben or u_root." });
    if (req.method === "GET" && url.pathname === "/api/session") return json(res, 200, { me: people[as], people: Object.values(people) });
    if (req.method === "GET" && url.pathname === "/api/board") return json(res, 200, boardView(store));
    if (req.method === "GET" && url.pathname === "/api/approvals") return json(res, 200, await desk.visibleTo(as));
    if (req.method === "GET" && url.pathname === "/api/events") return events.subscribe(as, res);
    if (req.method === "POST" && url.pathname === "/api/chat") return chat(req, res, as);
    const decideMatch = /^\/api\/approvals\/([^/]+)\/decide$/.exec(url.pathname);
    if (req.method === "POST" && decideMatch) return decide(req, res, decodeURIComponent(decideMatch[1]!), as);
    json(res, 404, { error: "not found" });
  }

  return {
    handler: (req: IncomingMessage, res: ServerResponse) => {
      handle(req, res).catch((error: unknown) => {
        console.error(error);
        if (!res.headersSent) json(res, 500, { error: "The server failed." });
        else res.end();
      });
    },
    close: events.close,
  };
}
