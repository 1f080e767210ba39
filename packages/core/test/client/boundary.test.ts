import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// B1 (docs/architecture/spec/distributed.md#distributed-10): browser bundles of core/client and core/http hold no node:* module and no @orpc/server;
// core/client imports nothing at all. esbuild is the one tsup bundles with, resolved through tsup.
type EsbuildResult = { metafile?: { inputs: Record<string, unknown> }; outputFiles: { text: string }[] };
type Esbuild = { build(o: Record<string, unknown>): Promise<EsbuildResult> };
const esbuild = createRequire(createRequire(import.meta.url).resolve("tsup"))("esbuild") as Esbuild;
const entry = (p: string) => fileURLToPath(new URL(`../../src/${p}`, import.meta.url));

async function browserBundle(file: string) {
  const result = await esbuild.build({
    entryPoints: [entry(file)],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    metafile: true,
    logLevel: "silent",
  });
  return { inputs: Object.keys(result.metafile!.inputs), text: result.outputFiles[0]!.text };
}

describe("browser bundles (B1)", () => {
  it("B1: core/client bundles nothing outside src/client", async () => {
    const { inputs } = await browserBundle("client/index.ts");
    expect(inputs.length).toBeGreaterThan(0);
    for (const input of inputs) expect(input).toMatch(/packages\/core\/src\/client\//);
  });

  it("B1: core/http bundles for the browser with no node:* module, no @orpc/server and no core main entry", async () => {
    const { inputs, text } = await browserBundle("http/index.ts");
    expect(inputs.some((i) => i.includes("@orpc/client"))).toBe(true);
    for (const input of inputs) {
      expect(input).not.toMatch(/^node:|@orpc\/server|@orpc\+server/);
      // orpc/link-fetch.ts: the one oRPC-major seam the HTTP client needs; internal/generic-message.ts: the concealed
      // errors' one message. Both import nothing.
      if (input.includes("packages/core/src/")) expect(input).toMatch(/packages\/core\/src\/(client\/|http\/|orpc\/link-fetch\.ts$|internal\/generic-message\.ts$)/);
    }
    expect(text).not.toMatch(/from\s*["']node:/);
  }, 20_000);
});
