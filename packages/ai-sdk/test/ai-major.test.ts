// docs/architecture/spec/adapters.md#adapters-2-1, docs/architecture/spec/adapters.md#adapters-2-7 (13): each leg proves which `ai` major it loaded. The root run (`pnpm test`, no
// ORPC_AGENT_AI_MAJOR) is the v5 leg; the legs set the variable and alias `ai` (vitest.legs.config.ts).
import * as ai from "ai";
import aiPackage from "ai/package.json" with { type: "json" };
import { expect, it } from "vitest";

const expected = process.env.ORPC_AGENT_AI_MAJOR ?? "5";

/** Export detection, as the spec words it: `convertToCoreMessages` ⇒ 5, `WebSocketChatTransport` ⇒ 7, else 6. */
function loadedMajor(): string {
  if ("convertToCoreMessages" in ai) return "5";
  if ("WebSocketChatTransport" in ai) return "7";
  return "6";
}

it("the loaded ai major equals ORPC_AGENT_AI_MAJOR", () => {
  expect(["5", "6", "7"]).toContain(expected);
  expect(loadedMajor()).toBe(expected);
});

it("the loaded ai package is the leg's major, and the running Node satisfies its engines.node", () => {
  expect(aiPackage.version.split(".")[0]).toBe(expected);
  const minimumNode = Number(/^>=\s*(\d+)/.exec(aiPackage.engines.node)?.[1]);
  expect(minimumNode).toBeGreaterThanOrEqual(18);
  expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(minimumNode);
});
