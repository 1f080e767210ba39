import { defineConfig } from "vitest/config";
import root from "./vitest.config.ts";

// The Vitest config Stryker runs (stryker.config.mjs): the core project only, with the root aliases so tests
// resolve `@orpc-agent/*` to the sandbox's mutated sources. Type tests (*.test-d.ts) have no runtime to mutate.
export default defineConfig({
  resolve: root.resolve,
  test: {
    projects: [{ extends: true, test: { name: "core", root: "packages/core", include: ["test/**/*.test.ts"] } }],
    dangerouslyIgnoreUnhandledErrors: false,
  },
});
