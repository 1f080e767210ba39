// MCP progress over Streamable HTTP (issue 46): the v2 Client on 2026-07-28 and the v1 Client on 2025-11-25 against
// createMCPHandler on loopback.
import { describe } from "vitest";
import { closeEverythingAfterEachTest } from "../support/cleanup.js";
import { connectLegacy, connectModern, serveApp } from "../support/handler.js";
import { legacyProgressClient, modernProgressClient } from "./eras.js";
import { createProgressApp } from "./progress-app.js";
import { inOrderCases, progressCases } from "./progress-cases.js";

closeEverythingAfterEachTest();

describe("progress over HTTP, 2026-07-28 (v2 Client)", () => {
  const connect = async () => modernProgressClient(await connectModern((await serveApp(createProgressApp())).url, "tok-dana"));
  progressCases(connect);
  inOrderCases(connect);
});

describe("progress over HTTP, 2025-11-25 (v1 Client)", () => {
  const connect = async () => legacyProgressClient(await connectLegacy((await serveApp(createProgressApp())).url, "tok-dana"));
  progressCases(connect);
  inOrderCases(connect);
});
