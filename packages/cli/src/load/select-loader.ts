import { extname } from "node:path";
import { pathToFileURL } from "node:url";

const TYPESCRIPT_EXTENSIONS = new Set([".ts", ".mts", ".cts", ".tsx"]);

/** How the child imports the entry: the `--import` of the first attempt and of the optional retry. */
export type LoaderPlan =
  | { ok: true; first: string | undefined; retry: string | undefined }
  | { ok: false; message: string };

export type LoaderSelectionInput = {
  /** The entry as given, for messages and its extension. */
  entry: string;
  /** `--import`: replaces detection, no retry. */
  importSpecifier?: string | undefined;
  /** `process.features`; native type stripping exists when `typescript` is a string (Node ≥ 22.18). */
  features: { typescript?: unknown };
  /** Resolves a loader package (`tsx`, `jiti/register`) from the project; absolute path or undefined. */
  resolveLoader: (specifier: string) => string | undefined;
  nodeVersion?: string;
};

export function isTypeScriptEntry(entry: string): boolean {
  return TYPESCRIPT_EXTENSIONS.has(extname(entry).toLowerCase());
}

/**
 * Chooses the child's `--import` (docs/architecture/spec/cli.md#cli-5-2). tsx and jiti are spawned, never imported: they only
 * ever appear here, as absolute `file:` URLs resolved from the project.
 */
export function selectLoader(input: LoaderSelectionInput): LoaderPlan {
  if (input.importSpecifier !== undefined) return { ok: true, first: input.importSpecifier, retry: undefined };
  if (!isTypeScriptEntry(input.entry)) return { ok: true, first: undefined, retry: undefined };

  const projectLoader = findProjectLoader(input.resolveLoader);
  if (typeof input.features.typescript === "string") {
    // Native stripping handles plain types only; enums, namespaces and decorators need the retry.
    return { ok: true, first: undefined, retry: projectLoader };
  }
  if (projectLoader !== undefined) return { ok: true, first: projectLoader, retry: undefined };
  return {
    ok: false,
    message:
      `cannot load the TypeScript entry ${input.entry}: this Node (${input.nodeVersion ?? process.version}) does not strip types ` +
      "and the project has neither tsx nor jiti.\n" +
      "Remedies: run on Node ≥ 22.18 (native type stripping); install tsx in the project (npm install -D tsx); " +
      "pass a loader with --import <module>; or point --entry at compiled JavaScript.",
  };
}

/** `tsx`, else `jiti/register`, as a `file:` URL for `node --import`. */
export function findProjectLoader(resolveLoader: (specifier: string) => string | undefined): string | undefined {
  for (const specifier of ["tsx", "jiti/register"]) {
    const path = resolveLoader(specifier);
    if (path !== undefined) return pathToFileURL(path).href;
  }
  return undefined;
}
