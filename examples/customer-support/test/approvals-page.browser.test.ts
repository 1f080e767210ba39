// The approvals page in a real browser: headless Chromium (see support/chromium.ts) driven by playwright-core.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSupportRuntime } from "../src/agent/runtime.js";
import { openStorage, type Storage } from "../src/agent/storage.js";
import { createStore } from "../src/domain/store.js";
import { createApprovalsApp } from "../src/web/approvals-app.js";
import { resolveChromium } from "./support/chromium.js";

const screenshots = fileURLToPath(new URL("../test-results/", import.meta.url));

describe("approvals page in headless Chromium", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "orpc-agent-web-"));
  let storage: Storage;
  let server: Server;
  let browser: Browser;
  let base = "";

  beforeAll(async () => {
    storage = await openStorage({ dataDir, databaseUrl: "" });
    const { runtime } = createSupportRuntime(storage);
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

  it("refuses the requester's own approval, then a manager approves and sees the resumed refund", async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/?as=u_dana`);
    await expect(page.locator("#me").textContent()).resolves.toBe("Dana (support)");

    // The agent, working for Dana, asks for a refund above the threshold: it waits on this page.
    await page.click("#ask");
    const card = page.locator("[data-approval]");
    await expect(card.count()).resolves.toBe(1);
    const approvalId = await card.getAttribute("data-approval");
    // The manager sees only what redact.approvalInput shows: order and amount, not the model-written reason.
    await expect(card.locator("pre").textContent()).resolves.toContain('"amountCents": 32000');
    await expect(card.locator("pre").textContent()).resolves.not.toContain("Keyboard arrived broken");

    // Dana tries to approve her own request.
    await card.locator("button[value=approved]").click();
    await expect(page.locator("#notice").textContent()).resolves.toContain("The approver must differ from the requesting actor");
    await expect(page.locator(`[data-approval="${approvalId}"]`).count()).resolves.toBe(1);

    // Priya, a manager, approves; the refund runs once, as Dana's request.
    await page.goto(`${base}/?as=u_priya`);
    await page.locator(`[data-approval="${approvalId}"] button[value=approved]`).click();
    await expect(page.locator("#notice").textContent()).resolves.toBe("Approved and resumed.");
    const outcome = await page.locator(`[data-outcome="${approvalId}"]`).textContent();
    expect(outcome).toContain("resumed: completed");
    expect(outcome).toContain('"approvedBy":"u_priya"');
    await expect(page.locator("[data-approval]").count()).resolves.toBe(0);

    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, "approvals-page.png"), fullPage: true });
  }, 60_000);
});
