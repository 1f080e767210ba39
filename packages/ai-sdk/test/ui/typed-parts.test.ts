// issue 25 "typed parts": the envelope output schema types every governed tool part through InferUITools.
import type { InferUITools, UIMessage } from "ai";
import { describe, expect, expectTypeOf, it } from "vitest";
import { governChat, type AISDKToolResult, type AISDKToolSet, type GovernedApprovalData, type GovernedUIDataTypes, type RemoteAISDKToolResult, type RemoteAISDKToolSet } from "../../src/index.js";
import { sameJson } from "../../src/ui/same-json.js";
import { context, dana } from "../support/app.js";
import { buildChatApp } from "../support/chat-app.js";

type Tools = InferUITools<AISDKToolSet>;
type ChatMessage = UIMessage<never, GovernedUIDataTypes, Tools>;

describe("typed parts", () => {
  it("InferUITools gives every tool part the envelope as its output type, and data-agent-approval parts their card data", async () => {
    expectTypeOf<Tools[string]["output"]>().toEqualTypeOf<AISDKToolResult>();
    expectTypeOf<InferUITools<RemoteAISDKToolSet>[string]["output"]>().toEqualTypeOf<RemoteAISDKToolResult>();
    type Card = Extract<ChatMessage["parts"][number], { type: "data-agent-approval" }>;
    expectTypeOf<Card["data"]>().toEqualTypeOf<GovernedApprovalData>();
    const chat = await governChat(buildChatApp().runtime, { actor: dana, context });
    expectTypeOf(chat.tools).toEqualTypeOf<AISDKToolSet>();
    expect(Object.keys(chat.tools)).toEqual(["orders_get", "orders_refund", "orders_cancel", "notes_send", "support_lookup"]);
  });

  it("sameJson: key order ignored; anything but plain JSON compares unequal, so the input check fails closed", () => {
    expect(sameJson({ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson(new Date(0), new Date(0))).toBe(false);
    expect(sameJson(Number.NaN, Number.NaN)).toBe(false);
    expect(sameJson({ a: "1" }, { a: 1 })).toBe(false);
  });
});
