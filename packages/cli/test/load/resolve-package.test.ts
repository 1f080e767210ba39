import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { activeConditions, resolvePackageEntry } from "../../src/load/resolve-package.js";
import { tempDir } from "../helpers/run-cli.js";

function install(root: string, name: string, manifest: object, files: string[]): void {
  const dir = join(root, "node_modules", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, ...manifest }));
  for (const file of files) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), "");
  }
}

describe("resolvePackageEntry", () => {
  it("walks up node_modules and applies import conditions of exports, subpaths included", () => {
    const root = tempDir();
    install(root, "@scope/core", {
      exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" }, "./schema": { import: "./dist/schema/index.js" } },
    }, ["dist/index.js", "dist/schema/index.js"]);
    const nested = join(root, "src", "deep");
    mkdirSync(nested, { recursive: true });
    expect(resolvePackageEntry(nested, "@scope/core")).toBe(realpathSync(join(root, "node_modules/@scope/core/dist/index.js")));
    expect(resolvePackageEntry(nested, "@scope/core/schema")).toBe(realpathSync(join(root, "node_modules/@scope/core/dist/schema/index.js")));
    expect(resolvePackageEntry(nested, "@scope/core/missing")).toBeUndefined();
  });

  it("supports string exports, main, and reports an absent package as undefined", () => {
    const root = tempDir();
    install(root, "loader", { exports: "./loader.mjs" }, ["loader.mjs"]);
    install(root, "old", { main: "lib/main.js" }, ["lib/main.js"]);
    expect(resolvePackageEntry(root, "loader")).toBe(realpathSync(join(root, "node_modules/loader/loader.mjs")));
    expect(resolvePackageEntry(root, "old")).toBe(realpathSync(join(root, "node_modules/old/lib/main.js")));
    expect(resolvePackageEntry(root, "not-installed-anywhere-xyz")).toBeUndefined();
  });

  it("finds the real tsx of this repository", () => {
    expect(resolvePackageEntry(process.cwd(), "tsx")).toMatch(/tsx[\\/]dist[\\/]loader\.mjs$/);
  });
});

describe("activeConditions", () => {
  it("adds --conditions / -C from the command line and NODE_OPTIONS to the defaults", () => {
    expect([...activeConditions([], "")].sort()).toEqual(["default", "import", "module-sync", "node"]);
    const conditions = activeConditions(["--conditions=from-argv", "-C", "short"], "--import tsx --conditions from-env");
    expect([...conditions]).toEqual(expect.arrayContaining(["from-argv", "short", "from-env", "import"]));
  });

  it("a custom condition picks the files the application itself would import", () => {
    const root = tempDir();
    install(root, "@scope/core", { exports: { ".": { "@scope/source": "./src/index.ts", import: "./dist/index.js" } } }, ["src/index.ts", "dist/index.js"]);
    expect(resolvePackageEntry(root, "@scope/core", activeConditions([], ""))).toMatch(/dist[\\/]index\.js$/);
    expect(resolvePackageEntry(root, "@scope/core", activeConditions(["--conditions=@scope/source"], ""))).toMatch(/src[\\/]index\.ts$/);
  });
});
