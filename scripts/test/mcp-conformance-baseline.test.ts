// The conformance baseline (scripts/mcp-conformance/baseline.yml) stays what issue 46 allows: out-of-scope scenarios
// only, each under a comment giving its reason, never a scenario this library serves; and the fixture still offers
// the tools the in-scope scenarios call. The suite itself runs in `pnpm test:mcp-conformance` (Node >= 22).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { createConformanceApp } from "../mcp-conformance/fixture.js";

const baseline = readFileSync(fileURLToPath(new URL("../mcp-conformance/baseline.yml", import.meta.url)), "utf8");
const IN_SCOPE = ["server-initialize", "ping", "tools-list", "tools-call-simple-text", "tools-call-error", "tools-call-with-progress", "json-schema-2020-12", "dns-rebinding-protection"];

/** The `server:` entries, each with the comment lines right above its group of entries (a blank line ends a group). */
function entries(): { scenario: string; reason: string }[] {
  const out: { scenario: string; reason: string }[] = [];
  let comment: string[] = [];
  let afterEntry = false;
  let inServer = false;
  for (const line of baseline.split("\n")) {
    if (line === "server:") inServer = true;
    if (!inServer) continue;
    if (/^ {2}#/.test(line)) {
      if (afterEntry) comment = [];
      comment.push(line.slice(3).trim());
      afterEntry = false;
    } else if (/^ {2}- /.test(line)) {
      out.push({ scenario: line.slice(4).trim(), reason: comment.join(" ") });
      afterEntry = true;
    } else if (line.trim() === "") {
      comment = [];
      afterEntry = false;
    }
  }
  return out;
}

it("lists no scenario the library serves, tools-call-with-progress included", () => {
  const listed = entries().map((entry) => entry.scenario);
  expect(listed.length).toBeGreaterThan(0);
  for (const scenario of IN_SCOPE) expect(listed).not.toContain(scenario);
  expect(new Set(listed).size).toBe(listed.length);
});

it("gives every entry a reason", () => {
  for (const { scenario, reason } of entries()) expect(reason, scenario).not.toBe("");
});

it("the fixture offers the tools the in-scope scenarios call", () => {
  const ids = createConformanceApp().runtime.registry.capabilities().map((capability) => capability.id);
  expect(ids).toEqual(expect.arrayContaining(["test_simple_text", "test_error_handling", "test_tool_with_progress", "json_schema_2020_12_tool"]));
});
