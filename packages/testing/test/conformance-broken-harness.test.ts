// The conformance suite must be able to fail (docs/architecture/spec/adapters.md#adapters-5-1): a harness that reports every approval gate as
// INTERNAL_ERROR is run in a child Vitest, so its failures are observed here without joining this run.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const config = fileURLToPath(new URL("./fixtures/broken-harness.vitest.config.mjs", import.meta.url));

type Assertion = { title: string; status: string; failureMessages: string[] };
type JsonReport = { numFailedTests: number; testResults: { assertionResults: Assertion[] }[] };

/** The child must not believe it is a worker of this run. */
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST") && key !== "NODE_OPTIONS"));
}

function runChild(outputFile: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["vitest", "run", "--config", config, "--reporter=json", `--outputFile=${outputFile}`], {
      cwd: repoRoot,
      env: childEnv(),
      stdio: "ignore",
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 25_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe("conformance suite against a harness that turns approvals into INTERNAL_ERROR", () => {
  let dir: string;
  let exitCode: number | null;
  let assertions: Assertion[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "orpc-agent-broken-harness-"));
    const outputFile = join(dir, "report.json");
    exitCode = await runChild(outputFile);
    const report = JSON.parse(await readFile(outputFile, "utf8")) as JsonReport;
    assertions = report.testResults.flatMap((file) => file.assertionResults);
  }, 30_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the child run fails, and all 22 checks ran", () => {
    expect(exitCode).toBe(1);
    expect(assertions).toHaveLength(22);
  });

  it("exactly the checks that use approvals fail: C7, C16, C18 and C22", () => {
    const failed = assertions.filter((a) => a.status === "failed").map((a) => a.title.split(":")[0]);
    // C22's grant-covered call passes through; its call outside the conditions is the broken gate.
    expect(failed).toEqual(["C7", "C16", "C18", "C22"]);
    // Everything else still holds: only the approval mapping is broken.
    expect(assertions.filter((a) => a.status === "passed")).toHaveLength(18);
  });

  it("C7 and C16 fail with a message showing the gate came back as an error", () => {
    for (const check of ["C7:", "C16:"]) {
      const failure = assertions.find((a) => a.title.startsWith(check));
      expect(failure?.status, check).toBe("failed");
      expect(failure!.failureMessages.join("\n"), check).toContain("expected 'error' to be 'approval-required'");
    }
    expect(assertions.find((a) => a.title.startsWith("C18:"))!.failureMessages.join("\n")).not.toBe("");
  });
});
