// The approvals page in a real browser: headless Chromium (see support/chromium.ts) driven by playwright-core.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priya } from "../src/agent/people.js";
import { createSupportRuntime, type SupportRuntime } from "../src/agent/runtime.js";
import { openStorage, type Storage } from "../src/agent/storage.js";
import { createStore } from "../src/domain/store.js";
import { createApprovalsApp } from "../src/web/approvals-app.js";
import { resolveChromium } from "./support/chromium.js";

const screenshots = fileURLToPath(new URL("../test-results/", import.meta.url));
const readme = fileURLToPath(new URL("../../../README.md", import.meta.url));

/** The path and query of the approvals-page URL the root README prints for `demo:web`. */
function readmePath(): string {
  const match = /demo:web` serves[^\n]*http:\/\/127\.0\.0\.1:3000(\/\S*?)\.?$/m.exec(readFileSync(readme, "utf8"));
  if (!match?.[1]) throw new Error("README.md no longer prints the demo:web URL");
  return match[1];
}

type Box = { x: number; y: number; width: number; height: number };
const clearOf = (title: Box, links: Box, gap: number): boolean =>
  links.x >= title.x + title.width + gap || links.y >= title.y + title.height;

describe("approvals page in headless Chromium", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "orpc-agent-web-"));
  let storage: Storage;
  let runtime: SupportRuntime["runtime"];
  let server: Server;
  let browser: Browser;
  let base = "";

  beforeAll(async () => {
    storage = await openStorage({ dataDir, databaseUrl: "" });
    ({ runtime } = createSupportRuntime(storage));
    server = createServer(createApprovalsApp(runtime, createStore()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: (await resolveChromium()).executablePath,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await storage?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("the README's URL, as printed: the manager asks the agent, the request comes from Dana (support), and her approval resumes it", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}${readmePath()}`);
    await expect(page.locator("#me").textContent()).resolves.toBe("Priya (support manager)");

    // At 1280 px the sign-in links sit clear of the page title: at least 16 px to its right, or below it.
    const title = await page.locator("header h1").boundingBox();
    const links = await page.locator("header nav").boundingBox();
    expect(title && links && clearOf(title, links, 16)).toBe(true);

    // The agent works for Dana: whoever presses the button, the request is hers, so the manager can approve it.
    await page.click("#ask");
    const card = page.locator("[data-approval]");
    // count() does not wait: the card appears once the agent's request has been filed.
    await card.first().waitFor();
    await expect(card.count()).resolves.toBe(1);
    const approvalId = await card.getAttribute("data-approval");
    await expect(card.locator("h3").textContent()).resolves.toContain("requested by Dana (support)");
    // Core's approval view: a high-risk write, when it was asked and when it expires, and only what
    // redact.approvalInput shows, labelled: order and amount, not the model-written reason.
    await expect(card.locator("[data-marker]").textContent()).resolves.toBe("High-risk write");
    await expect(card.locator(".risk").textContent()).resolves.toBe("High-risk write write · high risk");
    await expect(card.locator(".when").textContent()).resolves.toMatch(/^asked just now · expires in 23 h 59 min$/);
    await expect(card.locator("[data-field=orderId]").textContent()).resolves.toBe("Ordero_1002");
    await expect(card.locator("[data-field=amountCents] dd").textContent()).resolves.toBe("32000");
    await expect(card.textContent()).resolves.not.toContain("Keyboard arrived broken");
    await expect(card.locator("[data-progress]").textContent()).resolves.toBe("0 of 1 approval");

    await card.locator("textarea[name=comment]").fill("Broken on arrival.");
    await card.locator("button[value=approved]").click();
    await page.locator(`[data-outcome="${approvalId}"]`).waitFor();
    await expect(page.locator("#notice").textContent()).resolves.toBe("Approved and resumed.");
    const outcome = await page.locator(`[data-outcome="${approvalId}"]`).textContent();
    expect(outcome).toContain("resumed: completed");
    expect(outcome).toContain('"approvedBy":"u_priya"');
    await expect(page.locator("[data-approval]").count()).resolves.toBe(0);
    // The comment went with the decision.
    expect((await runtime.approvals.get(approvalId!))?.decision).toMatchObject({ approver: { id: "u_priya" }, comment: "Broken on arrival." });

    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "approvals-page.png"), fullPage: true });
  }, 60_000);

  it("signed in as Dana, her own request offers her no buttons; posting an approval anyway is refused (SI-4) and it stays pending", async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/?as=u_dana`);
    await page.click("#ask");
    const card = page.locator("[data-approval]", { hasText: "(you)" });
    await card.first().waitFor();
    await expect(card.count()).resolves.toBe(1);
    const approvalId = (await card.getAttribute("data-approval"))!;
    await expect(card.locator("button").count()).resolves.toBe(0);
    await expect(card.locator(".who").textContent()).resolves.toBe("Your own request: another person decides it.");
    const posted = await fetch(`${base}/approvals/${approvalId}/decide?as=u_dana`, { method: "POST", body: new URLSearchParams({ decision: "approved" }) }).then((r) => r.text());
    expect(posted).toContain("The approver must differ from the requesting actor");
    await page.reload();
    await expect(page.locator(`[data-approval="${approvalId}"]`).count()).resolves.toBe(1);
  }, 60_000);

  it("four eyes: a deletion shows \"1 of 2 approvals\" after one approver, refuses a repeat and the requester, and runs after a second approver", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/?as=u_priya`);
    await page.click("#ask-deletion");
    const card = page.locator("[data-approval]", { hasText: "customers.delete" });
    await card.first().waitFor();
    const approvalId = (await card.getAttribute("data-approval"))!;
    const progress = page.locator(`[data-progress="${approvalId}"]`);
    await expect(progress.textContent()).resolves.toBe("0 of 2 approvals");

    // A destructive capability: marked, and approving it asks to confirm before anything is decided.
    await expect(card.locator("[data-marker]").textContent()).resolves.toBe("Destructive");
    await card.locator("button[value=approved]").click();
    await page.locator(`#confirm[data-confirm="${approvalId}"]`).waitFor();
    await expect(progress.textContent()).resolves.toBe("0 of 2 approvals");
    await page.locator("#confirm-approve").click();
    await page.locator("#notice", { hasText: "Approval recorded: 1 of 2 approvals." }).waitFor();
    await expect(progress.textContent()).resolves.toBe("1 of 2 approvals · approved by Priya (support manager)");
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "approvals-page-quorum.png"), fullPage: true });

    // The same approver again: no Approve button (she may still reject), and a posted approval is refused.
    await expect(card.locator("button[value=approved]").count()).resolves.toBe(0);
    await expect(card.locator("button[value=rejected]").count()).resolves.toBe(1);
    await expect(card.locator(".who").textContent()).resolves.toBe("You have approved (1 of 2 approvals); another approver must approve it.");
    const post = (as: string) =>
      fetch(`${base}/approvals/${approvalId}/decide?as=${as}`, { method: "POST", body: new URLSearchParams({ decision: "approved", confirmed: "yes" }) }).then((r) => r.text());
    await expect(post("u_priya")).resolves.toContain("You have already approved this request");
    await expect(progress.textContent()).resolves.toBe("1 of 2 approvals · approved by Priya (support manager)");

    // The requester cannot be the second pair of eyes: no buttons, and a posted approval is refused.
    await page.goto(`${base}/?as=u_root`);
    await expect(page.locator(`[data-approval="${approvalId}"] button`).count()).resolves.toBe(0);
    await expect(post("u_root")).resolves.toContain("The approver must differ from the requesting actor");
    await expect(page.locator(`[data-progress="${approvalId}"]`).textContent()).resolves.toBe("1 of 2 approvals · approved by Priya (support manager)");

    await page.goto(`${base}/?as=u_sam`);
    await page.locator(`[data-approval="${approvalId}"] button[value=approved]`).click();
    await page.locator("#confirm-approve").click();
    await page.locator(`[data-outcome="${approvalId}"]`).waitFor();
    const outcome = await page.locator(`[data-outcome="${approvalId}"]`).textContent();
    expect(outcome).toContain("approved by Sam (data protection); resumed: completed");
    expect(outcome).toContain('"deleted":"c_grace"');
    await expect(page.locator(`[data-approval="${approvalId}"]`).count()).resolves.toBe(0);
  }, 60_000);
  it("standing grants: Priya approves with a grant from the form, the next refund runs under it, Revoke ends it and the next one asks", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/?as=u_priya`);
    const ids = async () => page.locator("[data-approval]").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-approval")!));
    const before = new Set(await ids());
    await page.click("#ask");
    await page.locator("#notice", { hasText: "The agent asked for approval." }).waitFor();
    const approvalId = (await ids()).find((id) => !before.has(id))!;
    const card = page.locator(`[data-approval="${approvalId}"]`);

    // More uses than orders.refund's caps allow (5): the runtime refuses, nothing is decided, no grant exists.
    await card.locator("input[name=grant]").check();
    await card.locator("input[name=grantUses]").evaluate((input: HTMLInputElement) => (input.removeAttribute("max"), (input.value = "99")));
    await card.locator("button[value=approved]").click();
    await page.locator("#notice", { hasText: "Refused:" }).waitFor();
    await expect(page.locator("#notice").textContent()).resolves.toContain("The request is still pending.");
    await expect(page.locator(`[data-approval="${approvalId}"]`).count()).resolves.toBe(1);
    await expect(page.locator("#no-grants").count()).resolves.toBe(1);

    // Conditions the form cannot read decide nothing either.
    await card.locator("input[name=grant]").check();
    await card.locator("input[name=grantConditions]").fill("amount about 400");
    await card.locator("button[value=approved]").click();
    await page.locator("#notice", { hasText: 'Could not read the condition "amount about 400"' }).waitFor();
    await expect(page.locator(`[data-approval="${approvalId}"]`).count()).resolves.toBe(1);

    // Refunds up to 400 for customer c_ada, 2 more, for an hour.
    await card.locator("input[name=grant]").check();
    await card.locator("input[name=grantUses]").fill("2");
    await card.locator("input[name=grantTtlMinutes]").fill("60");
    await card.locator("input[name=grantConditions]").fill("amount lte 400 and customerId eq c_ada");
    await card.locator("button[value=approved]").click();
    await page.locator("#notice", { hasText: "Approved and resumed; the grant covers 2 more." }).waitFor();
    const row = page.locator("[data-grant]");
    await expect(row.count()).resolves.toBe(1);
    await expect(row.locator(".terms").textContent()).resolves.toBe('/amountCents lte 40000 and /customerId eq "c_ada"');
    await expect(row.locator(".left").textContent()).resolves.toContain("2 of 2 uses left · actor scope");
    await expect(row.locator("h3").textContent()).resolves.toContain("for Dana (support), issued by Priya (support manager)");

    // The agent's next refund is covered: it runs at once, no new request.
    const pendingBefore = (await ids()).length;
    await page.click("#ask");
    await page.locator("#notice", { hasText: "The agent's refund ran under a standing grant" }).waitFor();
    await expect(page.locator("#notice").textContent()).resolves.toContain('"approvedBy":"u_priya"');
    await expect(page.locator("[data-grant] .left").textContent()).resolves.toContain("1 of 2 uses left");
    expect((await ids()).length).toBe(pendingBefore);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "approvals-page-grants.png"), fullPage: true });

    // Revoke: the grant is gone from the list, and the next refund asks again.
    await page.locator("[data-grant] button.revoke").click();
    await page.locator("#notice", { hasText: "Grant revoked; its 1 remaining uses will not be taken." }).waitFor();
    await expect(page.locator("#no-grants").count()).resolves.toBe(1);
    await page.click("#ask");
    await page.locator("#notice", { hasText: "The agent asked for approval." }).waitFor();
    expect((await ids()).length).toBe(pendingBefore + 1);
  }, 60_000);

  it("a decision link: the page shows the request and one button; pressing it decides as Priya with her comment and resumes; the link then decides nothing", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/?as=u_dana`);
    const ids = async () => page.locator("[data-approval]").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-approval")!));
    const before = new Set(await ids());
    await page.click("#ask");
    await page.locator("#notice", { hasText: "The agent asked for approval." }).waitFor();
    const approvalId = (await ids()).find((id) => !before.has(id))!;

    // What the notifier puts in Priya's Slack message: the approve link, minted for her.
    const { token } = await runtime.approvals.decisionLink(approvalId, { approver: priya, action: "approve", ttlMs: 60_000 });
    const link = `${base}/approvals/decide?${new URLSearchParams({ token })}`;
    await page.goto(link);
    const card = page.locator(`[data-approval="${approvalId}"]`);
    await expect(card.locator("h3").textContent()).resolves.toBe("orders.refund requested by Dana (support)");
    await expect(card.locator("[data-field=amountCents] dd").textContent()).resolves.toBe("32000");
    await expect(card.locator("[data-marker]").textContent()).resolves.toBe("High-risk write");
    // Opening the link decided nothing: one button, still pending.
    await expect(card.locator("button").count()).resolves.toBe(1);
    await expect(card.locator("#link-decide").textContent()).resolves.toBe("Approve");
    expect((await runtime.approvals.get(approvalId))?.status).toBe("pending");

    await card.locator("textarea[name=comment]").fill("Approved from my phone.");
    await card.locator("#link-decide").click();
    await page.locator("#notice", { hasText: "Approved and resumed." }).waitFor();
    await expect(page.locator(`[data-approval="${approvalId}"] .decision`).textContent()).resolves.toBe("Decided by Priya (support manager): approved Approved from my phone.");
    await expect(page.locator(`[data-approval="${approvalId}"] button`).count()).resolves.toBe(0);
    const decided = await runtime.approvals.get(approvalId);
    expect(decided?.decision).toMatchObject({ status: "approved", approver: { id: "u_priya" }, comment: "Approved from my phone." });
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "approvals-page-link.png"), fullPage: true });

    // The same link again: the page offers no button, and posting the token is refused.
    await page.goto(link);
    await expect(page.locator(`[data-approval="${approvalId}"] button`).count()).resolves.toBe(0);
    const replay = await fetch(`${base}/approvals/decide`, { method: "POST", body: new URLSearchParams({ token }) }).then((r) => r.text());
    expect(replay).toMatch(/id="notice">Refused: /);

    // A token changed by one character shows nothing to decide: the page reads the approval from the token alone.
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    await page.goto(`${base}/approvals/decide?${new URLSearchParams({ token: tampered })}`);
    await expect(page.locator("#empty").textContent()).resolves.toMatch(/^This link cannot be used/);
    await expect(page.locator("button").count()).resolves.toBe(0);
  }, 60_000);

  it("a decision link to approve a destructive call asks to confirm: without the box ticked nothing is decided", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/?as=u_priya`);
    await page.click("#ask-deletion");
    const approvalId = (await page.locator("[data-approval]", { hasText: "customers.delete" }).first().getAttribute("data-approval"))!;
    const { token } = await runtime.approvals.decisionLink(approvalId, { approver: priya, action: "approve", ttlMs: 60_000 });
    await page.goto(`${base}/approvals/decide?${new URLSearchParams({ token })}`);
    const card = page.locator(`[data-approval="${approvalId}"]`);
    await expect(card.locator("[data-marker]").textContent()).resolves.toBe("Destructive");
    await card.locator("#link-decide").click();
    // The browser keeps the form until the box is ticked: still pending, no vote.
    await expect(card.locator("input[name=confirmed]:invalid").count()).resolves.toBe(1);
    expect((await runtime.approvals.get(approvalId))?.approvals ?? []).toHaveLength(0);
    await card.locator("input[name=confirmed]").check();
    await card.locator("#link-decide").click();
    await page.locator("#notice", { hasText: "Approval recorded: 1 of 2 approvals." }).waitFor();
    await expect(page.locator(`[data-progress="${approvalId}"]`).textContent()).resolves.toBe("1 of 2 approvals · approved by Priya (support manager)");
  }, 60_000);
});
