// Public API reports (issue 33): one api-extractor report per entry point of every published package, from the
// built declarations, committed under packages/<pkg>/api/<entry>.api.md. Run after the build.
//   node scripts/api-report.mjs           (pnpm api:check) fails when a report differs from the committed one
//   node scripts/api-report.mjs --update  (pnpm api:update) rewrites the reports
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { publishedPackages } from "./published-packages.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** `.` → `index`, `./schema/valibot` → `schema-valibot`: one flat report name per entry point. */
export function reportName(subpath) {
  return subpath === "." ? "index" : subpath.slice(2).replaceAll("/", "-");
}

/**
 * Runs api-extractor on one entry's declarations. `update` rewrites the report; otherwise a report that differs
 * from `reportFolder/<name>.api.md` (or is missing) counts as changed. Returns { changed, errors }.
 */
export function extractReport({ packageDir, types, name, reportFolder, update }) {
  mkdirSync(reportFolder, { recursive: true });
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: packageDir,
      mainEntryPointFilePath: join(packageDir, types),
      compiler: { overrideTsconfig: { compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: ["node"], skipLibCheck: true, strict: true } } },
      apiReport: { enabled: true, reportFileName: `${name}.api.md`, reportFolder, reportTempFolder: mkdtempSync(join(tmpdir(), "api-report-")) },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // The reports guard the surface; doc-comment style and release tags are not what they are for.
        extractorMessageReporting: { default: { logLevel: "none" }, "ae-wrong-input-file-type": { logLevel: "error" } },
        tsdocMessageReporting: { default: { logLevel: "none" } },
        compilerMessageReporting: { default: { logLevel: "error" } },
      },
    },
    configObjectFullPath: join(packageDir, "api-extractor.json"),
    packageJsonFullPath: join(packageDir, "package.json"),
  });
  const errors = [];
  const result = Extractor.invoke(config, {
    localBuild: update,
    messageCallback(message) {
      if (message.logLevel === "error") errors.push(message.formatMessageWithLocation?.(packageDir) ?? message.text);
      message.handled = true;
    },
  });
  return { changed: result.apiReportChanged, errors };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const update = process.argv.includes("--update");
  const stale = [];
  for (const pkg of publishedPackages(ROOT)) {
    for (const entry of pkg.entries) {
      const name = reportName(entry.subpath);
      const { changed, errors } = extractReport({ packageDir: pkg.dir, types: entry.types, name, reportFolder: join(pkg.dir, "api"), update });
      if (errors.length > 0) {
        console.error(`${entry.specifier}:\n${errors.join("\n")}`);
        process.exit(1);
      }
      if (changed) stale.push(`${entry.specifier} (packages/${pkg.dir.split("/").pop()}/api/${name}.api.md)`);
    }
  }
  if (update) console.log(stale.length === 0 ? "API reports unchanged" : `API reports rewritten:\n${stale.join("\n")}`);
  else if (stale.length > 0) {
    console.error(`The public API changed without its report:\n${stale.join("\n")}\nRun \`pnpm api:update\`, review the diff, commit it with a changeset of the right bump.`);
    process.exit(1);
  } else console.log("API reports match");
}
