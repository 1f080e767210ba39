import type { CapabilitySnapshot, EntrySource } from "../snapshot/types.js";

/** What the parent tells the loader child, as its single argument (JSON). */
export type ChildPayload = {
  /** `file:` URL of the entry. */
  entryUrl: string;
  /** The entry as the user gave it, for messages. */
  entry: string;
  exportName: string | undefined;
  descriptions: boolean;
  /** Randomly named temp file the child writes its result to; never stdout (docs/architecture/spec/cli.md#cli-5-1). */
  resultFile: string;
};

export type ChildResult =
  | { ok: true; snapshot: CapabilitySnapshot; entrySource: EntrySource; exportName: string; runtimeAvailableAs?: string }
  | { ok: false; message: string; detail?: string };

/** Child exit codes (docs/architecture/spec/cli.md#cli-5-1). */
export const CHILD_EXIT = { ok: 0, importFailed: 10, exportRefused: 11, snapshotFailed: 12 } as const;
