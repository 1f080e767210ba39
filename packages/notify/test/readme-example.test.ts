// The README's example, run verbatim: the lines between the region markers must appear, in order, in the README's
// example block (its imports aside, which resolve by package name there and by path here).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createWebhookNotifier } from "../src/index.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const thisFile = readFileSync(new URL(import.meta.url), "utf8");
const normalize = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");

describe("README example", () => {
  it("the README shows the code this test runs", () => {
    const start = thisFile.lastIndexOf("// #region readme");
    const end = thisFile.lastIndexOf("// #endregion readme");
    expect(start).toBeGreaterThan(0);
    const region = normalize(thisFile.slice(thisFile.indexOf("\n", start) + 1, end));
    expect(region.length).toBeGreaterThan(20);
    expect(normalize(readme).join("\n")).toContain(region.join("\n"));
  });

  it("a signed webhook reaches a receiver that verifies it and drops replays", async () => {
    // #region readme
    const secret = `whsec_${randomBytes(32).toString("base64")}`; // share it with the receiver

    // The receiver (another service): verify the signature and timestamp, then process each webhook-id once.
    const seen = new Set<string>();
    const received: unknown[] = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        try {
          const event = new Webhook(secret).verify(body, req.headers as Record<string, string>);
          const id = String(req.headers["webhook-id"]);
          if (!seen.has(id)) received.push(event);
          seen.add(id);
          res.writeHead(204).end();
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/approvals`;

    // The sender: your app, with core's approval notifications (or any { type } object).
    const notifier = createWebhookNotifier({ url, secret });
    const { id } = await notifier.notify({ type: "approval.requested", approvalId: "apr_1" });
    await notifier.flush(); // tests and shutdown: wait for the background delivery

    expect(await notifier.status(id)).toMatchObject({ status: "delivered", attempts: 1 });
    expect(received).toEqual([{ type: "approval.requested", timestamp: expect.any(String), data: { type: "approval.requested", approvalId: "apr_1" } }]);
    receiver.close();
    // #endregion readme
  });
});
