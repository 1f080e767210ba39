import { describe, expect, it } from "vitest";
import { findProjectLoader, isTypeScriptEntry, selectLoader } from "../../src/load/select-loader.js";

const tsx = "/project/node_modules/tsx/dist/loader.mjs";
const jiti = "/project/node_modules/jiti/lib/jiti-register.mjs";
const resolvable = (available: Record<string, string>) => (specifier: string) => available[specifier];

describe("selectLoader (cli.md §5.2)", () => {
  it("--import given: used as is, no detection and no retry, for TypeScript and JavaScript alike", () => {
    const neverResolve = () => {
      throw new Error("detection must not run");
    };
    for (const entry of ["src/app.ts", "src/app.js"]) {
      expect(selectLoader({ entry, importSpecifier: "my-loader", features: { typescript: "strip" }, resolveLoader: neverResolve })).toEqual({
        ok: true,
        first: "my-loader",
        retry: undefined,
      });
    }
  });

  it("JavaScript entries need no loader", () => {
    expect(selectLoader({ entry: "dist/app.js", features: {}, resolveLoader: resolvable({ tsx }) })).toEqual({ ok: true, first: undefined, retry: undefined });
  });

  it("native stripping: import natively first, retry once with the project's loader", () => {
    expect(selectLoader({ entry: "src/app.ts", features: { typescript: "strip" }, resolveLoader: resolvable({ tsx }) })).toEqual({
      ok: true,
      first: undefined,
      retry: "file:///project/node_modules/tsx/dist/loader.mjs",
    });
    expect(selectLoader({ entry: "src/app.mts", features: { typescript: "transform" }, resolveLoader: resolvable({}) })).toEqual({
      ok: true,
      first: undefined,
      retry: undefined,
    });
  });

  it("no native stripping: tsx from the project as an absolute file: URL", () => {
    expect(selectLoader({ entry: "src/app.tsx", features: { typescript: false }, resolveLoader: resolvable({ tsx, "jiti/register": jiti }) })).toEqual({
      ok: true,
      first: "file:///project/node_modules/tsx/dist/loader.mjs",
      retry: undefined,
    });
  });

  it("no native stripping and no tsx: jiti/register", () => {
    expect(selectLoader({ entry: "src/app.cts", features: {}, resolveLoader: resolvable({ "jiti/register": jiti }) })).toEqual({
      ok: true,
      first: "file:///project/node_modules/jiti/lib/jiti-register.mjs",
      retry: undefined,
    });
  });

  it("none available: refuses with every remedy", () => {
    const plan = selectLoader({ entry: "src/app.ts", features: {}, resolveLoader: resolvable({}), nodeVersion: "v20.19.0" });
    expect(plan.ok).toBe(false);
    const message = plan.ok ? "" : plan.message;
    expect(message).toContain("cannot load the TypeScript entry src/app.ts");
    expect(message).toMatch(/Node ≥ 22\.18/);
    expect(message).toContain("install tsx");
    expect(message).toContain("--import");
    expect(message).toContain("compiled JavaScript");
  });

  it("recognizes .ts .mts .cts .tsx only", () => {
    expect(["a.ts", "a.mts", "a.cts", "a.tsx", "A.TS"].map(isTypeScriptEntry)).toEqual([true, true, true, true, true]);
    expect(["a.js", "a.mjs", "a.d", "ts"].map(isTypeScriptEntry)).toEqual([false, false, false, false]);
  });

  it("prefers tsx over jiti", () => {
    expect(findProjectLoader(resolvable({ tsx, "jiti/register": jiti }))).toContain("tsx");
  });
});
