import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_DIR } from "../helpers/paths.js";

const SRC = join(CLI_DIR, "src");

type Specifiers = { runtime: string[]; typeOnly: string[]; dynamic: string[] };

function specifiers(file: string): Specifiers {
  const text = readFileSync(file, "utf8");
  const runtime: string[] = [];
  const typeOnly: string[] = [];
  for (const match of text.matchAll(/^\s*(import|export)(\s+type)?\b[^;]*?\bfrom\s*["']([^"']+)["']/gm)) {
    (match[2] !== undefined ? typeOnly : runtime).push(match[3] as string);
  }
  for (const match of text.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) runtime.push(match[1] as string);
  const dynamic = [...text.matchAll(/import\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((match) => match[1] as string);
  return { runtime, typeOnly, dynamic };
}

/** Files reachable from `start` through static runtime imports of relative modules. */
function staticGraph(start: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of specifiers(file).runtime) {
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier).replace(/\.js$/, ".ts"));
    }
  };
  visit(start);
  return [...seen];
}

function allSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? allSources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

const isUi = (specifier: string) => /^(ink|react)(\/|$)/.test(specifier);

describe("install surface boundary (cli.md §3)", () => {
  it("no module reachable from check names ink or react, statically or dynamically", () => {
    const graph = staticGraph(join(SRC, "commands", "check.ts"));
    expect(graph.length).toBeGreaterThan(10);
    for (const file of graph) {
      const { runtime, typeOnly, dynamic } = specifiers(file);
      expect([...runtime, ...typeOnly, ...dynamic].filter(isUi), file).toEqual([]);
      // The UI bridge is reached only lazily.
      expect(runtime.filter((specifier) => specifier.includes("/ui/")), file).toEqual([]);
    }
  });

  it("the dispatcher reaches the UI bridge only through dynamic import()", () => {
    const graph = staticGraph(join(SRC, "cli.ts"));
    expect(graph.some((file) => file.endsWith(join("commands", "inspect.ts")))).toBe(true);
    expect(graph.filter((file) => file.includes(`${join("src", "ui")}`))).toEqual([]);
    expect(specifiers(join(SRC, "commands", "inspect.ts")).dynamic).toEqual(["../ui/bridge.js"]);
  });

  it("src never imports tsx, jiti, ai, the MCP SDK, OpenTelemetry, or an @orpc-agent package other than core", () => {
    const forbidden = /^(tsx|jiti|ai|@modelcontextprotocol\/|@opentelemetry\/)(\/|$)|^@orpc-agent\/(?!core(\/|$))/;
    for (const file of allSources(SRC)) {
      const { runtime, typeOnly, dynamic } = specifiers(file);
      expect([...runtime, ...typeOnly, ...dynamic].filter((specifier) => forbidden.test(specifier)), file).toEqual([]);
    }
  });

  it("the boundary check itself sees static, type-only and dynamic specifiers", () => {
    const found = specifiers(join(SRC, "commands", "inspect.ts"));
    expect(found.runtime).toContain("../render/inventory.js");
    expect(found.dynamic).toContain("../ui/bridge.js");
    expect(specifiers(join(SRC, "snapshot", "types.ts")).typeOnly).toContain("@orpc-agent/core");
  });

  it("the package declares core as a peer and no dependencies", () => {
    const manifest = JSON.parse(readFileSync(join(CLI_DIR, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    expect(manifest.dependencies).toBeUndefined();
    expect(Object.keys(manifest.peerDependencies ?? {})).toEqual(["@orpc-agent/core"]);
    expect(Object.keys(manifest.optionalDependencies ?? {}).sort()).toEqual(["ink", "react"]);
    expect(manifest.bin).toEqual({ "orpc-agent": "./bin/orpc-agent.js" });
  });
});
