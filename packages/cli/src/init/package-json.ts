/** The `orpcAgent` keys `init` writes: the confirmed entry and, when one was chosen, the export. */
export type InitConfig = { entry: string; export?: string };

export const CHECK_SCRIPT_NAME = "check:capabilities";

/**
 * Merges `{ entry, export? }` into `orpcAgent`, keeping every other key (a hand-set `snapshot` survives).
 * An export not chosen now is removed, since a stale one would change what is read. Two-space indent,
 * trailing newline (docs/architecture/spec/cli.md#cli-8-5). `text` undefined means there is no package.json yet.
 */
export function mergeAgentConfig(text: string | undefined, config: InitConfig): string {
  const manifest = parseManifest(text);
  const previous = isRecord(manifest.orpcAgent) ? manifest.orpcAgent : {};
  const next: Record<string, unknown> = { ...previous, entry: config.entry };
  if (config.export !== undefined) next.export = config.export;
  else delete next.export;
  manifest.orpcAgent = next;
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Adds `"check:capabilities": <command>` unless a script of that name exists (docs/architecture/spec/cli.md#cli-8-5). */
export function addCheckScript(text: string | undefined, command: string): { text: string; added: boolean } {
  const manifest = parseManifest(text);
  const scripts = isRecord(manifest.scripts) ? manifest.scripts : {};
  if (Object.hasOwn(scripts, CHECK_SCRIPT_NAME)) return { text: text ?? `${JSON.stringify(manifest, null, 2)}\n`, added: false };
  manifest.scripts = { ...scripts, [CHECK_SCRIPT_NAME]: command };
  return { text: `${JSON.stringify(manifest, null, 2)}\n`, added: true };
}

/** The config to set by hand when `init` refuses, as a package.json fragment. */
export function configByHand(entry: string | undefined): string {
  return `${JSON.stringify({ orpcAgent: { entry: entry ?? "src/agent.ts" } }, null, 2)}\n`;
}

function parseManifest(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  const parsed: unknown = JSON.parse(text);
  if (!isRecord(parsed)) throw new Error("package.json is not a JSON object");
  return parsed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
