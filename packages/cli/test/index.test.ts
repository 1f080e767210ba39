import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

describe("programmatic API (cli.md §9)", () => {
  it("exports every value the spec lists", () => {
    expect(api.SNAPSHOT_VERSION).toBe(3);
    const functions = [
      "buildSnapshot", "parseSnapshot", "diffSnapshots", "governanceOf", "loadSnapshot", "renderInventory", "renderChanges",
      "renderMarkdown", "renderGithub", "renderJson", "snapshotJson", "canonicalJson", "sha256", "LoadError",
    ];
    for (const name of functions) expect(typeof (api as Record<string, unknown>)[name], name).toBe("function");
  });

  it("LoadError carries message and detail", () => {
    const error = new api.LoadError("could not import src/app.ts", "Error: boom");
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "LoadError", message: "could not import src/app.ts", detail: "Error: boom" });
  });
});
