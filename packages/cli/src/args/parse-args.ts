import type { FailOn } from "../drift/gate.js";
import type { Verbosity } from "../render/verbosity.js";

export type Command = "inspect" | "snapshot" | "check" | "init";
export type Format = "plain" | "json" | "md" | "github";

/** Flags as given on the command line; absent when not given (config and defaults apply later). */
export type Flags = {
  entry?: string;
  export?: string;
  snapshot?: string;
  out?: string;
  failOn?: FailOn;
  format?: Format;
  verbosity?: Verbosity;
  json?: boolean;
  plain?: boolean;
  descriptions?: boolean;
  import?: string;
  timeoutMs?: number;
  cwd?: string;
};

export type ParsedArgs =
  | { ok: true; action: "help" }
  | { ok: true; action: "version" }
  | { ok: true; action: "run"; command: Command; flags: Flags }
  | { ok: false; error: string };

const COMMANDS: readonly Command[] = ["inspect", "snapshot", "check", "init"];

type ValueFlag = { key: "entry" | "export" | "snapshot" | "out" | "import" | "cwd" } | { parse: (value: string, flags: Flags) => string | undefined };

const VALUE_FLAGS: Record<string, ValueFlag> = {
  "--entry": { key: "entry" },
  "--export": { key: "export" },
  "--snapshot": { key: "snapshot" },
  "-o": { key: "out" },
  "--out": { key: "out" },
  "--import": { key: "import" },
  "--cwd": { key: "cwd" },
  "--fail-on": { parse: (value, flags) => oneOf(value, { any: "any", widening: "widening" }, (v) => (flags.failOn = v)) },
  // `human` and `markdown` are accepted aliases (docs/architecture/spec/cli.md#cli-4).
  "--format": {
    parse: (value, flags) =>
      oneOf(value, { plain: "plain", human: "plain", json: "json", md: "md", markdown: "md", github: "github" }, (v) => (flags.format = v)),
  },
  "--verbosity": {
    parse: (value, flags) => oneOf(value, { min: "min", normal: "normal", detail: "detail" }, (v) => (flags.verbosity = v)),
  },
  "--timeout": {
    parse: (value, flags) => {
      const ms = Number(value);
      if (value.trim() === "" || !Number.isFinite(ms) || ms <= 0) return "must be a number of milliseconds > 0";
      flags.timeoutMs = ms;
      return undefined;
    },
  },
};

const BOOLEAN_FLAGS: Record<string, (flags: Flags) => void> = {
  "--json": (flags) => (flags.json = true),
  "--plain": (flags) => (flags.plain = true),
  "--no-descriptions": (flags) => (flags.descriptions = false),
  "--detail": (flags) => (flags.verbosity = "detail"),
};

/**
 * Parses `orpc-agent <command> [options]` (docs/architecture/spec/cli.md#cli-4): exactly one positional command; a flag value may
 * not start with `-` except a lone `-`. Flags that do not apply to the command are accepted and ignored, except
 * `--format` on inspect, which is refused with a hint to `--json`.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  if (argv.some((arg) => arg === "-h" || arg === "--help")) return { ok: true, action: "help" };
  if (argv.some((arg) => arg === "-v" || arg === "--version")) return { ok: true, action: "version" };

  const flags: Flags = {};
  let command: Command | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index] as string;
    if (!token.startsWith("-") || token === "-") {
      if (command !== undefined) return { ok: false, error: `unexpected argument "${token}": give exactly one command` };
      if (!(COMMANDS as readonly string[]).includes(token)) return { ok: false, error: `unknown command "${token}"` };
      command = token as Command;
      continue;
    }

    const [name, inline] = splitInline(token);
    const setBoolean = BOOLEAN_FLAGS[name];
    if (setBoolean !== undefined && inline === undefined) {
      setBoolean(flags);
      continue;
    }
    const spec = VALUE_FLAGS[name];
    if (spec === undefined) return { ok: false, error: `unknown option "${token}"` };
    const value = inline ?? argv[index + 1];
    if (inline === undefined) index += 1;
    if (value === undefined || value === "" || (value.startsWith("-") && value !== "-")) {
      return { ok: false, error: `${name} needs a value` };
    }
    if ("key" in spec) {
      flags[spec.key] = value;
    } else {
      const problem = spec.parse(value, flags);
      if (problem !== undefined) return { ok: false, error: `${name} ${problem} (got "${value}")` };
    }
  }
  if (command === undefined) return { ok: false, error: "no command given" };
  // --format shapes check's report; on inspect it used to be ignored silently, so say what inspect offers.
  if (command === "inspect" && flags.format !== undefined) {
    return { ok: false, error: "--format is a check option: for inspect use --json (the snapshot as JSON) or --plain (the plain table)" };
  }
  return { ok: true, action: "run", command, flags };
}

function splitInline(token: string): [string, string | undefined] {
  const at = token.indexOf("=");
  return token.startsWith("--") && at > 0 ? [token.slice(0, at), token.slice(at + 1)] : [token, undefined];
}

function oneOf<T extends string>(value: string, allowed: Record<string, T>, set: (value: T) => void): string | undefined {
  const match = Object.hasOwn(allowed, value) ? allowed[value] : undefined;
  if (match === undefined) return `must be one of ${[...new Set(Object.keys(allowed))].join(", ")}`;
  set(match);
  return undefined;
}
