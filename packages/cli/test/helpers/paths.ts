import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CLI_DIR = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = fileURLToPath(new URL("../../bin/orpc-agent.js", import.meta.url));
export const FIXTURES = fileURLToPath(new URL("../../../../test-fixtures/cli-apps/", import.meta.url));
export const DIST_INDEX = fileURLToPath(new URL("../../dist/index.js", import.meta.url));

/** The end-to-end tests self-skip when the package is unbuilt (docs/architecture/spec/cli.md#cli-10); the global setup builds it. */
export const BUILT = existsSync(fileURLToPath(new URL("../../dist/cli.js", import.meta.url)));
