// The packages this repository publishes (every non-private package under packages/) and their entry points,
// read from the exports a tarball carries (publishConfig.exports when set, as pnpm packs it).
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";

/** @returns {{ name: string, dir: string, manifest: any, entries: { subpath: string, specifier: string, types: string, import: string }[] }[]} */
export function publishedPackages(root) {
  const out = [];
  for (const folder of readdirSync(join(root, "packages")).sort()) {
    const dir = join(root, "packages", folder);
    if (!existsSync(join(dir, "package.json"))) continue;
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    if (manifest.private) continue;
    out.push({ name: manifest.name, dir, manifest, entries: entryPoints(manifest) });
  }
  return out;
}

/** Code entry points of a manifest (`./package.json` is not one). */
export function entryPoints(manifest) {
  const exports = manifest.publishConfig?.exports ?? manifest.exports ?? {};
  return Object.entries(exports)
    .filter(([subpath, target]) => subpath !== "./package.json" && typeof target === "object")
    .map(([subpath, target]) => ({
      subpath,
      specifier: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      types: target.types,
      import: target.import,
    }));
}
