// SI-7 (fail closed) for the example's embedded PGlite folder (issue 43, finding 7): one process at a time may open a
// folder, because a second one neither fails nor warns and the two silently diverge. The attacks name the same folder
// another way (a symlink, a trailing `/.`, a detour through `..`), leave markers behind (a killed owner, a live
// process that is not an owner: pid reuse), and start several openers at the same instant, as real processes. A
// second opener must be refused whatever it does; a folder whose owner is gone must open again.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { claimEmbeddedFolder } from "../../examples/customer-support/src/agent/embedded-owner.js";

const OWNER_MODULE = resolve(dirname(fileURLToPath(import.meta.url)), "../../examples/customer-support/src/agent/embedded-owner.ts");
const roots: string[] = [];
const children: ChildProcess[] = [];
const claims: { release(): void }[] = [];

afterEach(async () => {
  for (const claim of claims.splice(0)) claim.release();
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((done) => child.once("exit", done));
      child.kill("SIGKILL");
      await gone;
    }
  }
});
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function freshRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "orpc-agent-si7-owner-"));
  roots.push(root);
  return root;
}

/** A claim this test releases after it, whatever happens. */
function claim(dataDir: string) {
  const held = claimEmbeddedFolder(dataDir);
  claims.push(held);
  return held;
}

/** Whether a second claim on `other` is refused while `first` holds its folder; a claim that succeeds is released. */
function secondIsRefused(other: string): boolean {
  try {
    claimEmbeddedFolder(other).release();
    return false;
  } catch (error) {
    expect((error as Error).message).toContain("is already open in this process");
    return true;
  }
}

/** A Node process that lives until killed: a pid that is alive and is no owner of anything. */
function bystander(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1 << 30); console.log('up')"], { stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  return new Promise((ready) => child.stdout!.once("data", () => ready(child)));
}

describe("SI-7: the same folder under another name is still the same folder", () => {
  it("SI-7: a symlink to an open folder is refused: the owner's marker is found through the link", () => {
    const root = freshRoot();
    const real = join(root, "pglite");
    mkdirSync(real);
    symlinkSync(real, join(root, "alias"));
    claim(real);
    expect(secondIsRefused(join(root, "alias"))).toBe(true);
  });

  it("SI-7: an open folder reached through a symlink refuses its real path", () => {
    const root = freshRoot();
    const real = join(root, "pglite");
    mkdirSync(real);
    symlinkSync(real, join(root, "alias"));
    claim(join(root, "alias"));
    expect(secondIsRefused(real)).toBe(true);
  });

  it("SI-7: a symlinked parent folder is the same folder", () => {
    const root = freshRoot();
    mkdirSync(join(root, "data", "pglite"), { recursive: true });
    symlinkSync(join(root, "data"), join(root, "data-link"));
    claim(join(root, "data", "pglite"));
    expect(secondIsRefused(join(root, "data-link", "pglite"))).toBe(true);
  });

  it.each([
    ["a trailing slash", (dir: string) => `${dir}/`],
    ["a trailing /.", (dir: string) => `${dir}/.`],
    ["a detour through ..", (dir: string) => `${dir}/../${basename(dir)}`],
    ["a doubled slash", (dir: string) => dir.replace(/\/([^/]+)$/, "//$1")],
  ])("SI-7: the folder named with %s is refused", (_label, spell) => {
    const dataDir = join(freshRoot(), "pglite");
    claim(dataDir);
    expect(secondIsRefused(spell(dataDir))).toBe(true);
  });

  it("SI-7: a folder not created yet is claimed as what it will be, and a spelling of it is refused", () => {
    const dataDir = join(freshRoot(), "not-yet", "pglite");
    claim(dataDir);
    expect(secondIsRefused(`${dataDir}/.`)).toBe(true);
  });
});

describe("SI-7: markers left behind", () => {
  it("SI-7: a marker whose process is gone (killed) is ignored and removed; the folder opens", async () => {
    const dataDir = join(freshRoot(), "pglite");
    const owners = `${dataDir}.owners`;
    const dead = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    const pid = dead.pid!;
    await new Promise((done) => dead.once("exit", done));
    mkdirSync(owners, { recursive: true });
    writeFileSync(join(owners, `${pid}-00000000-0000-4000-8000-000000000000`), "pnpm mcp");
    const held = claim(dataDir);
    expect(readdirSync(owners).some((name) => name.startsWith(`${pid}-`))).toBe(false);
    held.release();
    // Released: nothing of the claim is left behind.
    expect(existsSync(owners)).toBe(false);
  });

  it("SI-7: a marker naming a live process that is no owner (pid reuse) is refused as a live owner, naming the pid and what to delete; once it is gone the folder opens", async () => {
    const dataDir = join(freshRoot(), "pglite");
    const owners = `${dataDir}.owners`;
    const alive = await bystander();
    mkdirSync(owners, { recursive: true });
    writeFileSync(join(owners, `${alive.pid}-00000000-0000-4000-8000-000000000000`), "pnpm demo:web");
    let refusal: Error | undefined;
    try {
      claim(dataDir);
    } catch (error) {
      refusal = error as Error;
    }
    expect(refusal?.message).toContain(`already open in another process (pid ${alive.pid}: pnpm demo:web)`);
    expect(refusal?.message).toContain(`delete ${owners}`);
    // The refused opener withdrew its own marker: only the bystander's is left.
    expect(readdirSync(owners)).toEqual([`${alive.pid}-00000000-0000-4000-8000-000000000000`]);

    const gone = new Promise((done) => alive.once("exit", done));
    alive.kill("SIGKILL");
    await gone;
    claim(dataDir);
  });

  it("SI-7: a file in the markers folder that names no pid does not block the folder", () => {
    const dataDir = join(freshRoot(), "pglite");
    mkdirSync(`${dataDir}.owners`, { recursive: true });
    writeFileSync(join(`${dataDir}.owners`, "notes.txt"), "left by hand");
    claim(dataDir);
  });
});

describe("SI-7: openers starting at the same instant (real processes)", { timeout: 120_000 }, () => {
  /**
   * `count` processes that each load the claim, then wait for the same start signal (a file appearing), claim one
   * folder, report and hold it until killed. Every report is "claimed" or "refused".
   */
  async function race(dataDir: string, spellings: string[]): Promise<string[]> {
    const go = join(dirname(dataDir), `go-${Math.random().toString(36).slice(2)}`);
    const script = `
      import { existsSync } from "node:fs";
      const { claimEmbeddedFolder } = await import(${JSON.stringify(OWNER_MODULE)});
      const dataDir = process.argv.at(-1);
      console.log("ready");
      while (!existsSync(${JSON.stringify(go)})) await new Promise((tick) => setTimeout(tick, 1));
      try { claimEmbeddedFolder(dataDir); console.log("claimed"); } catch { console.log("refused"); }
      setInterval(() => {}, 1 << 30);`;
    const reports = spellings.map((spelling) => {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, spelling], { stdio: ["ignore", "pipe", "inherit"] });
      children.push(child);
      let text = "";
      const ready = new Promise<void>((done) => child.stdout!.on("data", (chunk: Buffer) => ((text += chunk.toString()), text.includes("ready") && done())));
      const report = new Promise<string>((done) => {
        const check = () => {
          const line = /claimed|refused/.exec(text)?.[0];
          if (line !== undefined) done(line);
        };
        child.stdout!.on("data", check);
        child.once("exit", () => done(/claimed|refused/.exec(text)?.[0] ?? `exited: ${text}`));
      });
      return { ready, report };
    });
    await Promise.all(reports.map((r) => r.ready));
    writeFileSync(go, "");
    return Promise.all(reports.map((r) => r.report));
  }

  it("SI-7: of four processes claiming one folder at once, at most one opens it, in every round", async () => {
    for (let round = 0; round < 3; round++) {
      const dataDir = join(freshRoot(), "pglite");
      const outcomes = await race(dataDir, [dataDir, dataDir, dataDir, dataDir]);
      expect(outcomes.every((outcome) => outcome === "claimed" || outcome === "refused"), outcomes.join()).toBe(true);
      expect(outcomes.filter((outcome) => outcome === "claimed").length).toBeLessThanOrEqual(1);
      for (const child of children.splice(0)) child.kill("SIGKILL");
    }
  });

  it("SI-7: processes naming one folder by different paths at once: at most one opens it", async () => {
    const root = freshRoot();
    const dataDir = join(root, "pglite");
    mkdirSync(dataDir);
    symlinkSync(dataDir, join(root, "alias"));
    const outcomes = await race(dataDir, [dataDir, join(root, "alias"), `${dataDir}/.`, `${root}/alias/`]);
    expect(outcomes.filter((outcome) => outcome === "claimed").length).toBeLessThanOrEqual(1);
  });
});
