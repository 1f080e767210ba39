// The default `serverInfo.version` (docs/architecture/spec/adapters.md#adapters-3-1): read from package.json, which the build inlines, so the
// published code never reads the file system (decided here).
import packageJson from "../../package.json" with { type: "json" };

export const PACKAGE_VERSION: string = packageJson.version;
