// The browser tests find a Chromium on a machine with nothing installed (issue 27).
import { chromium } from "playwright-core";
import { expect, it } from "vitest";
import { resolveChromium } from "./support/chromium.js";

it("CHROMIUM_PATH wins over every other binary", async () => {
  await expect(resolveChromium({ CHROMIUM_PATH: "/opt/my-chromium", ORPC_AGENT_IGNORE_SYSTEM_CHROMIUM: "1" })).resolves.toEqual({
    source: "CHROMIUM_PATH",
    executablePath: "/opt/my-chromium",
  });
});

it("without a system Chromium the npm package's binary is used, and playwright-core drives it", async () => {
  const binary = await resolveChromium({ ORPC_AGENT_IGNORE_SYSTEM_CHROMIUM: "1" });
  expect(binary.source).toBe("npm");
  const browser = await chromium.launch({ executablePath: binary.executablePath, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    await page.setContent("<h1>approvals</h1>");
    await expect(page.locator("h1").textContent()).resolves.toBe("approvals");
  } finally {
    await browser.close();
  }
}, 60_000);
