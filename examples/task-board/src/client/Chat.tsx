import type { UseChatHelpers } from "@ai-sdk/react";
import { useState } from "react";
import type { BoardMessage } from "./api.js";
import { MessagePart } from "./parts.js";

/** What the scripted model understands; with a real model, anything goes. */
const PROMPTS = ["What's on the boards?", "Mark the on-call keys on Ben's Ops board as done.", "Move the release notes to done.", "Delete the Ops board."];

export function Chat({ chat }: { chat: UseChatHelpers<BoardMessage> }) {
  const [input, setInput] = useState("");
  const busy = chat.status === "submitted" || chat.status === "streaming";
  const send = (text: string) => void chat.sendMessage({ text });
  return (
    <section id="chat">
      <h2>Assistant</h2>
      <div id="messages">
        {chat.messages.map((message) => (
          <div key={message.id} className={`message ${message.role}`} data-role={message.role}>
            {message.parts.map((part, index) => (
              <MessagePart key={index} part={part} />
            ))}
          </div>
        ))}
      </div>
      <div className="prompts">
        {PROMPTS.map((prompt) => (
          <button key={prompt} data-prompt={prompt} disabled={busy} onClick={() => send(prompt)}>
            {prompt}
          </button>
        ))}
      </div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (input.trim()) send(input.trim());
          setInput("");
        }}
      >
        <input id="prompt" value={input} onChange={(event) => setInput(event.target.value)} placeholder="Ask the assistant…" />
        <button type="submit" disabled={busy}>
          Send
        </button>
      </form>
    </section>
  );
}
