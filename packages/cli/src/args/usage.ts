/** The usage text, printed by `--help` (stdout) and after usage errors (stderr). */
export const USAGE = `Usage: orpc-agent <command> [options]

What an agent can reach from this repository, and whether that changed.

Commands:
  inspect     Print the inventory (Ink view on an interactive terminal, else plain)
  snapshot    Write the capability snapshot (the committed baseline)
  check       Compare the app with the committed snapshot; exit 1 on failing drift
  init        Interactive setup: choose the entry, write config and a baseline
  audit verify | audit export
              Verify the hash-chained audit trail (see orpc-agent audit --help)

Options:
  --entry <path>          Module exporting a governance, runtime or registry  [config orpcAgent.entry]
  --export <name>         Export to read  [config orpcAgent.export]
  --snapshot <path>       Committed snapshot  [config orpcAgent.snapshot, else capabilities.snapshot.json]
  -o, --out <path>        snapshot: output path; "-" writes to stdout
  --fail-on <any|widening>            check: which changes fail (default any)
  --format <plain|json|md|github>     check: output format (default plain)
  --verbosity <min|normal|detail>     inspect, check: how much to print (default normal)
  --detail                Same as --verbosity detail
  --json                  inspect: print the snapshot as JSON
  --plain                 inspect: never use the Ink view
  --no-descriptions       Omit descriptions
  --import <module>       node --import for the loader child (replaces loader detection)
  --timeout <ms>          Loader timeout (default 30000)
  --cwd <path>            Base for relative paths and for package.json config
  -h, --help              Show this help
  -v, --version           Show the version

Exit codes: 0 clean (or success), 1 check found failing drift, 2 could not run.
`;
