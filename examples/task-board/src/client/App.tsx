import { useChat } from "@ai-sdk/react";
import { reconcileApprovalPart, type GovernedApprovalChunk } from "@orpc-agent/ai-sdk";
import { DefaultChatTransport } from "ai";
import { useCallback, useEffect, useMemo, useState } from "react";
import { getJson, withAs, type BoardMessage, type BoardWithTasks, type ApprovalCard, type Person } from "./api.js";
import { Approvals } from "./Approvals.js";
import { BoardView } from "./BoardView.js";
import { Chat } from "./Chat.js";

type ServerEvent = { type: "board" } | { type: "approval"; part: GovernedApprovalChunk };

export function App({ as }: { as: string }) {
  const [session, setSession] = useState<{ me: Person; people: Person[] } | null>(null);
  const [boards, setBoards] = useState<BoardWithTasks[]>([]);
  const [approvals, setApprovals] = useState<ApprovalCard[]>([]);
  const transport = useMemo(() => new DefaultChatTransport<BoardMessage>({ api: withAs("/api/chat", as) }), [as]);
  const chat = useChat<BoardMessage>({ transport });
  const { setMessages } = chat;

  const refresh = useCallback(async () => {
    const [b, p] = await Promise.all([getJson<BoardWithTasks[]>("/api/board", as), getJson<ApprovalCard[]>("/api/approvals", as)]);
    setBoards(b);
    setApprovals(p);
  }, [as]);

  useEffect(() => {
    void getJson<{ me: Person; people: Person[] }>("/api/session", as).then(setSession);
    void refresh();
    // The server pushes board changes and approval outcomes; an outcome updates its card where it is.
    const events = new EventSource(withAs("/api/events", as));
    events.onmessage = (message) => {
      const event = JSON.parse(message.data as string) as ServerEvent;
      if (event.type === "approval") setMessages((messages) => reconcileApprovalPart(messages, event.part));
      void refresh();
    };
    return () => events.close();
  }, [as, refresh, setMessages]);

  // A finished turn may have filed a request or changed the board.
  useEffect(() => {
    if (chat.status === "ready") void refresh();
  }, [chat.status, refresh]);

  return (
    <>
      <header>
        <h1>Task board</h1>
        <nav>
          Signed in as <strong id="me" data-user={session?.me.id}>{session?.me.displayName ?? "…"}</strong>
          {session?.people.map((p) => (
            <a key={p.id} href={`/?as=${p.id}`} className={p.id === as ? "current" : ""}>
              {p.displayName}
            </a>
          ))}
        </nav>
      </header>
      <main>
        <section className="board-column">
          <BoardView boards={boards} people={session?.people ?? []} />
          <Approvals as={as} cards={approvals} onDecided={refresh} />
        </section>
        <Chat chat={chat} />
      </main>
    </>
  );
}
