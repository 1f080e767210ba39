// The `ai` major legs (docs/architecture/spec/adapters.md#adapters-2-1): the same test files, with `ai` (and its provider package) aliased to the
// lockfile-pinned major named by ORPC_AGENT_AI_MAJOR. The root `pnpm test` run is the v5 leg without this file.
//
//   ORPC_AGENT_AI_MAJOR=6 vitest run --config vitest.legs.config.ts
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import root from "../../vitest.config.ts";

const LEGS = {
  "5": { ai: "ai", provider: "@ai-sdk/provider" },
  "6": { ai: "ai-v6", provider: "@ai-sdk/provider-v3" },
  "7": { ai: "ai-v7", provider: "@ai-sdk/provider-v4" },
} as const;

const major = process.env.ORPC_AGENT_AI_MAJOR;
if (major !== "5" && major !== "6" && major !== "7") {
  throw new Error(`vitest.legs.config.ts: set ORPC_AGENT_AI_MAJOR to 5, 6 or 7 (got ${JSON.stringify(major)}).`);
}
const leg = LEGS[major];

// Only imports from transformed files (src, test, test-fixtures) are rewritten; each `ai` major keeps resolving
// its own provider packages from its install.
const legAliases = [
  { find: /^ai(\/.*)?$/, replacement: `${leg.ai}$1` },
  { find: /^@ai-sdk\/provider$/, replacement: leg.provider },
];
const rootAliases = (root.resolve?.alias ?? []) as { find: string | RegExp; replacement: string }[];

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  resolve: { alias: [...legAliases, ...rootAliases] },
  test: {
    name: `ai-sdk (ai v${major})`,
    // The adversarial chat attacks too: their answers arrive as each major's own approval parts (issue 25).
    include: ["test/**/*.test.ts", "../../tests/adversarial/si-*-chat-*.test.ts"],
    dangerouslyIgnoreUnhandledErrors: false,
  },
});
