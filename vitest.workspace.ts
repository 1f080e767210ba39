// The project list. Vitest 4 no longer reads workspace files on its own:
// the root vitest.config.ts imports this list into `test.projects`.
const pkg = (name: string, extra: Record<string, unknown> = {}) => ({
  extends: true as const,
  test: { name, root: `packages/${name}`, include: ["test/**/*.test.ts"], ...extra },
});

export default [
  pkg("core"),
  pkg("testing"),
  pkg("postgres", { testTimeout: 30_000, hookTimeout: 60_000 }),
  pkg("cli", { testTimeout: 60_000, globalSetup: ["test/global-setup.ts"] }),
  pkg("ai-sdk"),
  pkg("mcp", { testTimeout: 30_000 }),
  pkg("opentelemetry"),
  pkg("dbos", { testTimeout: 60_000, hookTimeout: 60_000 }),
  pkg("notify", { testTimeout: 30_000, hookTimeout: 60_000 }),
  { extends: true as const, test: { name: "example", root: "examples/customer-support", include: ["test/**/*.test.ts"], testTimeout: 60_000, globalSetup: ["../../packages/cli/test/global-setup.ts"] } },
  // Its Mastra parts run as child processes on a Node >= 22.13 (Node 24 on the 20.19 leg), hence the longer hooks.
  { extends: true as const, test: { name: "task-board", root: "examples/task-board", include: ["test/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000, globalSetup: ["../../packages/cli/test/global-setup.ts"] } },
  { extends: true as const, test: { name: "reliability", root: "tests/reliability", include: ["**/*.test.ts"], testTimeout: 120_000, hookTimeout: 60_000, execArgv: ["--expose-gc"] } },
  // Real instance processes on one PostgreSQL schema behind a proxy (issue 48); the CLI's global setup builds the audit verifier.
  { extends: true as const, test: { name: "multi-instance", root: "tests/multi-instance", include: ["**/*.test.ts"], testTimeout: 180_000, hookTimeout: 180_000, globalSetup: ["../../packages/cli/test/global-setup.ts"] } },
  // The CLI's global setup builds core and the CLI when stale: the audit-verify attacks run the built binary.
  { extends: true as const, test: { name: "adversarial", root: "tests/adversarial", include: ["**/*.test.ts"], testTimeout: 30_000, globalSetup: ["../../packages/cli/test/global-setup.ts"] } },
  // Every package's type tests in one `tsc` run (tsconfig.type-tests.json): core's sources are checked once, not once
  // per package, and Vitest prints its "experimental feature" notice once.
  {
    extends: true as const,
    test: { name: "types", root: ".", include: [], typecheck: { enabled: true, only: true, include: ["packages/*/test/**/*.test-d.ts"], tsconfig: "tsconfig.type-tests.json" } },
  },
  { extends: true as const, test: { name: "scripts", root: "scripts", include: ["test/**/*.test.ts"] } },
];
