// The example's MCP endpoint as `pnpm mcp` runs it, with the approvals page beside it, for one test file: storage in
// a temporary folder, one runtime behind both servers, every part closed and the folder removed after the file.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createSupportRuntime } from "../../src/agent/runtime.js";
import { openStorage, type Storage } from "../../src/agent/storage.js";
import { createStore, type Store } from "../../src/domain/store.js";
import { startMcpServer } from "../../src/mcp/server.js";
import { createApprovalsApp } from "../../src/web/approvals-app.js";

export type McpWithApprovalsPage = {
  /** The example's domain store: `effects` counts what really ran. */
  store(): Store;
  /** The approvals page's root. */
  page(): URL;
  /** The MCP endpoint. */
  mcpUrl(): string;
  /** Priya approves `approvalId` on the page, as her browser's form would post it. */
  approveOnPage(approvalId: string): Promise<Response>;
};

/** Registers both servers on the enclosing block; `setupTimeoutMs` covers the first PGlite boot. */
export function useMcpWithApprovalsPage(dataDirPrefix: string, setupTimeoutMs: number): McpWithApprovalsPage {
  const dataDir = mkdtempSync(join(tmpdir(), dataDirPrefix));
  let storage: Storage | undefined;
  let shutdown: (() => Promise<void>) | undefined;
  let store: Store | undefined;
  let web: Server | undefined;
  let page: URL | undefined;
  let mcp: Awaited<ReturnType<typeof startMcpServer>> | undefined;

  beforeAll(async () => {
    storage = await openStorage({ dataDir, databaseUrl: "" });
    const support = createSupportRuntime(storage);
    shutdown = support.shutdown;
    store = createStore();
    web = createServer(createApprovalsApp(support.runtime, store));
    await new Promise<void>((resolve) => web!.listen(0, "127.0.0.1", resolve));
    page = new URL(`http://127.0.0.1:${(web.address() as AddressInfo).port}/`);
    mcp = await startMcpServer(support.runtime, store, 0, { approvalsPage: page });
  }, setupTimeoutMs);

  afterAll(async () => {
    await mcp?.close();
    web?.close();
    await shutdown?.();
    await storage?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    store: () => store!,
    page: () => page!,
    mcpUrl: () => mcp!.url,
    approveOnPage: (approvalId) =>
      fetch(new URL(`/approvals/${encodeURIComponent(approvalId)}/decide?as=u_priya`, page), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "decision=approved",
      }),
  };
}
