// From packages/cli, @orpc/server resolves to another pnpm variant than core's (same version, other peers),
// so its declarations differ nominally from the ones core's types use. The objects are the same at runtime;
// re-type `os` as core sees it so tests typecheck.
import { os as rootOs } from "@orpc/server";
import type { os as CoreOs } from "../../../core/node_modules/@orpc/server/dist/index.mjs";

export const os = rootOs as unknown as typeof CoreOs;
