// Finding 7 of issue 43: `pnpm mcp` and `pnpm demo:web` on the README's defaults both open PGlite in `.data/pglite`.
// A second process on one embedded folder must be refused with an error that says what to do, and the folder
// must be free again once its owner is gone, however it went (a normal stop, or SIGKILL).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openStorage } from "../src/agent/storage.js";
import { startEntry, type EntryProcess } from "./support/entry-process.js";

const folders: string[] = [];
const running: EntryProcess[] = [];

function freshFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "orpc-agent-owner-"));
  folders.push(dir);
  return dir;
}

afterEach(async () => {
  for (const entry of running.splice(0)) {
    if (entry.child.exitCode === null && entry.child.signalCode === null) entry.child.kill("SIGKILL");
    await entry.exited;
  }
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const start = (entry: "src/mcp/main.ts" | "src/web/main.ts", cwd: string) => {
  const started = startEntry(entry, cwd);
  running.push(started);
  return started;
};
const MCP_READY = /^MCP endpoint: /;
const WEB_READY = /^approvals page: /;

/**
 * Until the entry serves HTTP: it then also handles Ctrl-C (`pnpm mcp` installs its SIGINT handler after printing
 * its URL, so a signal sent on the printed line alone could still meet the default handler).
 */
async function serving(entry: EntryProcess, ready: RegExp): Promise<string> {
  const line = await entry.waitFor(ready);
  await entry.waitFor(/Ctrl-C to stop/);
  const url = /http:\/\/\S+/.exec(line)![0];
  await fetch(url).then((response) => response.arrayBuffer());
  return url;
}

// Each test starts up to three processes that each open PGlite: slow on a busy machine.
describe("one process per embedded database folder", { timeout: 180_000 }, () => {
  it("pnpm demo:web next to a running pnpm mcp is refused, naming the owner and what to do; the owner keeps serving", async () => {
    const cwd = freshFolder();
    const mcp = start("src/mcp/main.ts", cwd);
    const endpoint = await serving(mcp, MCP_READY);

    const web = start("src/web/main.ts", cwd);
    // Either it serves (the silent divergence) or it exits; only the exit is right.
    const outcome = await Promise.race([web.exited.then(() => "exited"), web.waitFor(WEB_READY).then(() => "serving", () => "exited")]);
    expect(outcome).toBe("exited");
    const { code } = await web.exited;
    expect(code).not.toBe(0);
    const refusal = web.output();
    expect(refusal).toContain(`The embedded database in .data/pglite is already open in another process (pid ${mcp.pid}: pnpm mcp)`);
    expect(refusal).toMatch(/stop that process/i);
    expect(refusal).toContain("DATABASE_URL");
    expect(refusal).not.toMatch(WEB_READY);
    // The owner is untouched: its endpoint still answers (401 without a bearer token).
    expect((await fetch(endpoint, { method: "POST" })).status).toBe(401);
  });

  it("after the owner stops normally (Ctrl-C), the next process opens the folder", async () => {
    const cwd = freshFolder();
    const mcp = start("src/mcp/main.ts", cwd);
    await serving(mcp, MCP_READY);
    mcp.child.kill("SIGINT");
    expect(await mcp.exited).toEqual({ code: 0, signal: null });

    const web = start("src/web/main.ts", cwd);
    await web.waitFor(WEB_READY);
  });

  it("after the owner is killed with SIGKILL, the next process opens the folder: a dead owner's claim is free", async () => {
    const cwd = freshFolder();
    const web = start("src/web/main.ts", cwd);
    await web.waitFor(WEB_READY);
    web.child.kill("SIGKILL");
    expect(await web.exited).toEqual({ code: null, signal: "SIGKILL" });

    const mcp = start("src/mcp/main.ts", cwd);
    await mcp.waitFor(MCP_READY);
    // And that process owns it in turn.
    const second = start("src/web/main.ts", cwd);
    expect(await Promise.race([second.exited.then(() => "exited"), second.waitFor(WEB_READY).then(() => "serving", () => "exited")])).toBe("exited");
    expect((await second.exited).code).not.toBe(0);
    expect(second.output()).toContain(`already open in another process (pid ${mcp.pid}: pnpm mcp)`);
  });

  it("within one process, a second openStorage on the same folder is refused until the first is closed", async () => {
    const dataDir = join(freshFolder(), "pglite");
    const first = await openStorage({ dataDir, databaseUrl: "" });
    await expect(openStorage({ dataDir, databaseUrl: "" })).rejects.toThrow("The embedded database in " + dataDir + " is already open in this process");
    await first.close();
    const again = await openStorage({ dataDir, databaseUrl: "" });
    await again.close();
  });
});
