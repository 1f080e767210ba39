import { describe, expect, it } from "vitest";
import { parseArgs } from "../../src/args/parse-args.js";

describe("parseArgs (cli.md §4)", () => {
  it("reads the command and every flag", () => {
    expect(
      parseArgs([
        "check", "--entry", "src/a.ts", "--export", "gov", "--snapshot", "s.json", "-o", "-", "--fail-on", "widening",
        "--format", "github", "--verbosity", "min", "--json", "--plain", "--no-descriptions", "--import", "tsx",
        "--timeout", "1500", "--cwd", "app",
      ]),
    ).toEqual({
      ok: true,
      action: "run",
      command: "check",
      flags: {
        entry: "src/a.ts", export: "gov", snapshot: "s.json", out: "-", failOn: "widening", format: "github", verbosity: "min",
        json: true, plain: true, descriptions: false, import: "tsx", timeoutMs: 1500, cwd: "app",
      },
    });
  });

  it("accepts human for plain, markdown for md, --out and --flag=value", () => {
    expect(parseArgs(["check", "--format", "human"])).toMatchObject({ flags: { format: "plain" } });
    expect(parseArgs(["check", "--format=markdown"])).toMatchObject({ flags: { format: "md" } });
    expect(parseArgs(["snapshot", "--out", "x.json"])).toMatchObject({ flags: { out: "x.json" } });
  });

  it("--detail is the same as --verbosity detail", () => {
    expect(parseArgs(["inspect", "--detail"])).toEqual(parseArgs(["inspect", "--verbosity", "detail"]));
  });

  it("help and version win", () => {
    expect(parseArgs(["check", "--help"])).toEqual({ ok: true, action: "help" });
    expect(parseArgs(["-h"])).toEqual({ ok: true, action: "help" });
    expect(parseArgs(["-v"])).toEqual({ ok: true, action: "version" });
  });

  it("refuses usage errors", () => {
    const error = (argv: string[]) => {
      const parsed = parseArgs(argv);
      return parsed.ok ? undefined : parsed.error;
    };
    expect(error([])).toBe("no command given");
    expect(error(["deploy"])).toBe('unknown command "deploy"');
    expect(error(["check", "inspect"])).toContain("exactly one command");
    expect(error(["check", "--frobnicate"])).toBe('unknown option "--frobnicate"');
    expect(error(["check", "--entry"])).toBe("--entry needs a value");
    expect(error(["check", "--entry", "--json"])).toBe("--entry needs a value");
    expect(error(["check", "--fail-on", "narrowing"])).toContain("must be one of any, widening");
    expect(error(["check", "--format", "xml"])).toContain("--format must be one of");
    expect(error(["check", "--verbosity", "loud"])).toContain("--verbosity must be one of");
    expect(error(["check", "--timeout", "0"])).toContain("> 0");
    expect(error(["check", "--timeout", "soon"])).toContain("> 0");
  });

  it("inspect refuses --format with a hint to --json instead of ignoring it", () => {
    for (const format of ["json", "md", "plain"]) {
      expect(parseArgs(["inspect", "--format", format])).toEqual({
        ok: false,
        error: "--format is a check option: for inspect use --json (the snapshot as JSON) or --plain (the plain table)",
      });
    }
    expect(parseArgs(["inspect", "--json"])).toMatchObject({ ok: true, flags: { json: true } });
  });

  it("a lone - is a value", () => {
    expect(parseArgs(["snapshot", "-o", "-"])).toMatchObject({ ok: true, flags: { out: "-" } });
  });
});
