// The old mixed-case names stay as aliases of the upper-case ones until the next major.
import { describe, expectTypeOf, it } from "vitest";
import type { MCPToolAnnotations, McpToolAnnotations, ORPCV2BuilderLike, OrpcV2BuilderLike } from "../../src/index.js";

describe("core deprecated type names", () => {
  it("McpToolAnnotations and OrpcV2BuilderLike are the upper-case types", () => {
    expectTypeOf<McpToolAnnotations>().toEqualTypeOf<MCPToolAnnotations>();
    expectTypeOf<OrpcV2BuilderLike>().toEqualTypeOf<ORPCV2BuilderLike>();
  });
});
