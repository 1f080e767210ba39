// The project list. Vitest 4 no longer reads workspace files on its own:
// the root vitest.config.ts imports this list into `test.projects`.
export default [
  {
    extends: true,
    test: { name: "core", root: "packages/core", include: ["test/**/*.test.ts"], typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "packages/core/tsconfig.json" } },
  },
  { extends: true, test: { name: "scripts", root: "scripts", include: ["test/**/*.test.ts"] } },
];
