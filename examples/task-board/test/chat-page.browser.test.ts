// The page in a real browser: headless Chromium (the customer-support example's resolver: CHROMIUM_PATH, the system
// binary, else the npm one) on the example's own server, which runs the Mastra agent on a modern Node (see
// support/modern-node.ts). Ada asks the agent to finish a task on Ben's board; she is offered no buttons on her own request;
// Ben approves with a comment in another browser context; Ada's card turns into the completed result where it is.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveChromium } from "../../customer-support/test/support/chromium.js";
import { modernNode } from "./support/modern-node.js";
import { buildClient, startServer, stopServer } from "./support/processes.js";

const screenshots = fileURLToPath(new URL("../test-results/", import.meta.url));

describe("the task board page in headless Chromium", () => {
  const scratch = mkdtempSync(join(tmpdir(), "orpc-agent-task-board-"));
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;

  beforeAll(async () => {
    const node = modernNode();
    const clientDir = join(scratch, "client");
    const [executable] = await Promise.all([resolveChromium(), buildClient(node, clientDir)]);
    server = await startServer(node, { DATA_DIR: join(scratch, "pglite"), CLIENT_DIR: clientDir });
    browser = await chromium.launch({
      executablePath: executable.executablePath,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (server) await stopServer(server.child);
    rmSync(scratch, { recursive: true, force: true });
  });

  /** A separate browser context per person: their own cookies, storage and event stream. */
  async function signIn(as: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error(`page error (${as}):`, error));
    await page.goto(`${server.base}/?as=${as}`);
    // The name shows "…" until the session loads; data-user appears with it.
    await page.locator(`#me[data-user="${as}"]`).waitFor();
    return page;
  }

  it("completing another owner's task: an approval card, refused to the requester, approved by the owner in a second context, then the completed result in place", async () => {
    const ada = await signIn("u_ada");
    await expect(ada.locator("#me").textContent()).resolves.toBe("Ada");
    await ada.locator("button[data-prompt]", { hasText: "on-call keys" }).click();

    const card = ada.locator("[data-card]");
    await card.and(ada.locator("[data-state=pending]")).waitFor();
    const approvalId = (await card.getAttribute("data-card"))!;
    expect(approvalId).toMatch(/^apr_/);
    await expect(card.textContent()).resolves.toContain("Completing a task on Ops needs its owner Ben's approval.");
    await expect(ada.locator("[data-tool=tasks_move]").getAttribute("data-state")).resolves.toBe("output-available");
    await expect(ada.locator("[data-task=t_keys]").getAttribute("data-status")).resolves.toBe("doing");

    // Ada sees her own request on the approvals panel, described by core's approval view: who may decide (not who
    // decided), and no buttons, since the runtime would refuse her (SI-4).
    const own = ada.locator(`[data-pending="${approvalId}"]`);
    await own.waitFor();
    await expect(own.locator("h3").textContent()).resolves.toBe("tasks.move requested by you");
    await expect(own.locator(".risk").textContent()).resolves.toContain("write · medium risk");
    await expect(own.locator(".when").textContent()).resolves.toMatch(/^asked (just now|\d+ min ago) · expires in \d+ (h|min)/);
    await expect(own.locator("[data-field=taskId] dd").textContent()).resolves.toBe("t_keys");
    await expect(own.locator("[data-field=status] dd").textContent()).resolves.toBe("done");
    await expect(own.locator(".progress").textContent()).resolves.toBe("0 of 1 approval");
    await expect(own.locator(".who").textContent()).resolves.toBe("Awaiting a decision by Ben, the board's owner");
    await expect(own.textContent()).resolves.not.toContain("Decided by");
    await expect(own.locator("button").count()).resolves.toBe(0);
    await expect(own.locator("textarea").count()).resolves.toBe(0);
    // Posting the decision anyway is still refused by the runtime.
    const refused = await ada.evaluate(async (id) => {
      const res = await fetch(`/api/approvals/${id}/decide?as=u_ada`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ decision: "approved" }) });
      return (await res.json()) as { ok: boolean; text: string };
    }, approvalId);
    expect(refused).toEqual({ ok: false, text: expect.stringContaining("The approver must differ from the requesting actor.") });
    await expect(card.getAttribute("data-state")).resolves.toBe("pending");

    // Ben, the board's owner, signs in elsewhere and approves.
    const ben = await signIn("u_ben");
    await expect(ben.locator("#me").textContent()).resolves.toBe("Ben");
    const request = ben.locator(`[data-pending="${approvalId}"]`);
    await request.waitFor();
    await expect(request.textContent()).resolves.toContain("requested by Ada");
    await expect(request.locator(".who").textContent()).resolves.toBe("Awaiting your decision");
    await expect(request.locator("button[value=approved]").count()).resolves.toBe(1);
    await expect(request.locator("button[value=rejected]").count()).resolves.toBe(1);
    await request.locator("textarea[name=comment]").fill("Keys rotated on Friday; thanks Ada.");
    await request.locator("button[value=approved]").click();
    await ben.locator("#notice", { hasText: "Approved; the operation completed." }).waitFor();

    // The decision, with the comment sent along, is recorded: both panels now say who decided.
    const decided = ben.locator(`[data-decided="${approvalId}"]`);
    await decided.waitFor();
    await expect(decided.locator(".decision").textContent()).resolves.toMatch(/^Decided by Ben: approved/);
    await expect(decided.locator(".decision .comment").textContent()).resolves.toBe("Keys rotated on Friday; thanks Ada.");
    await expect(decided.locator(".progress").textContent()).resolves.toBe("1 of 1 approval · approved by Ben");
    await expect(decided.locator("button").count()).resolves.toBe(0);

    // Ada's card updates where it was: same message, the resumed result on it, no new message.
    const messagesBefore = await ada.locator("[data-role]").count();
    await ada.locator(`[data-card="${approvalId}"][data-state=completed]`).waitFor();
    await expect(ada.locator("[data-card]").count()).resolves.toBe(1);
    await expect(ada.locator("[data-role]").count()).resolves.toBe(messagesBefore);
    await expect(ada.locator(`[data-card="${approvalId}"] .result`).textContent()).resolves.toBe('{"taskId":"t_keys","title":"Rotate the on-call keys","status":"done"}');
    await ada.locator("[data-task=t_keys][data-status=done]").waitFor();
    await expect(ada.locator(`[data-pending="${approvalId}"]`).count()).resolves.toBe(0);
    await expect(ada.locator(`[data-decided="${approvalId}"] .decision`).textContent()).resolves.toContain("Decided by Ben: approved");
    await ben.locator("[data-task=t_keys][data-status=done]").waitFor();

    mkdirSync(screenshots, { recursive: true });
    await ada.screenshot({ path: join(screenshots, "task-board-approved.png"), fullPage: true });
  }, 60_000);

  it("a deletion the policy denies is shown as denied (the SDK's output-denied part) with the policy's public reason; the board stays", async () => {
    const ada = await signIn("u_ada");
    await ada.locator("button[data-prompt]", { hasText: "Delete the Ops board" }).click();
    const deletion = ada.locator("[data-tool=boards_delete]");
    await deletion.and(ada.locator('[data-state="output-denied"]')).waitFor();
    await expect(deletion.locator(".reason").textContent()).resolves.toBe("Agents may not delete boards; the owner deletes a board on the board page.");
    // The assistant's reply streams in after the denied tool part; wait for it rather than read it once.
    await ada.locator("[data-role=assistant]", { hasText: "I couldn't do that" }).waitFor();
    await expect(deletion.locator("strong").textContent()).resolves.toBe("denied");
    await expect(ada.locator("[data-card]").count()).resolves.toBe(0);
    await expect(ada.locator("[data-board=b_ops]").count()).resolves.toBe(1);

    mkdirSync(screenshots, { recursive: true });
    await ada.screenshot({ path: join(screenshots, "task-board-denied.png"), fullPage: true });
  }, 60_000);
});
