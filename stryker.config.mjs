// @ts-check
// Mutation testing of the security-relevant core (issue "Mutation testing: prove the security tests can fail").
// Run with `pnpm test:mutation` (Stryker 10 needs Node 22; the script finds or installs one). Results, the HTML
// report and the incremental file land in reports/ (gitignored). packages/core/MUTATION.md records the numbers.

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  // Named, not globbed: under pnpm, Stryker's "@stryker-mutator/*" scan only sees its own store folder.
  plugins: ["@stryker-mutator/vitest-runner"],
  testRunner: "vitest",
  vitest: { configFile: "stryker.vitest.config.ts" },
  // Narrow it per area with `--mutate packages/core/src/policy/**/*.ts` and sum the areas.
  mutate: [
    "packages/core/src/runtime/**/*.ts",
    "packages/core/src/policy/**/*.ts",
    "packages/core/src/approvals/**/*.ts",
  ],
  // Copy only what the core tests load into the sandbox: other packages, docs and examples stay out.
  ignorePatterns: [
    "/*",
    "!/packages",
    "!/test-fixtures",
    "!/package.json",
    "!/tsconfig.base.json",
    "!/vitest.config.ts",
    "!/vitest.workspace.ts",
    "!/stryker.vitest.config.ts",
    "/packages/*",
    "!/packages/core",
    "/packages/core/dist",
  ],
  // Shared 2-core machine: two workers, and each mutant runs only the tests that reach it.
  coverageAnalysis: "perTest",
  concurrency: 2,
  incremental: true,
  incrementalFile: "reports/mutation/stryker-incremental.json",
  tempDirName: ".stryker-tmp",
  reporters: ["progress", "clear-text", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 80, break: 80 },
  timeoutMS: 10_000,
};
