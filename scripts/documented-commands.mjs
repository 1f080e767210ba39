// Every pnpm command the documentation tells a reader to type must reach a script: `pnpm --filter X demo` whose
// filter matches no workspace project exits 0 with "No projects matched the filters", so a broken command would
// otherwise look like it worked. Used by check-docs.mjs on the docs pages and the READMEs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** pnpm's own commands; anything else after the options is a script name (`pnpm demo` runs the script `demo`). */
const BUILTINS = new Set([
  "add", "approve-builds", "audit", "config", "create", "dedupe", "deploy", "dlx", "env", "exec", "fetch", "i",
  "import", "init", "install", "link", "list", "ls", "outdated", "pack", "patch", "prune", "publish", "rebuild",
  "remove", "rm", "root", "setup", "store", "unlink", "up", "update", "why", "x",
]);
/** Options that take a value, as pnpm parses them. */
const VALUED = new Set(["--filter", "-F", "--dir", "-C", "--workspace-root", "--reporter", "--loglevel"]);

/** Workspace projects: name, folder and scripts, read from the root and packages/*, examples/*, docs, test-fixtures. */
export function readWorkspace(root) {
  const projects = [];
  const add = (dir) => {
    const file = path.join(dir, "package.json");
    if (!existsSync(file)) return;
    const pkg = JSON.parse(readFileSync(file, "utf8"));
    projects.push({ name: pkg.name ?? "", dir, scripts: pkg.scripts ?? {} });
  };
  add(root);
  for (const group of ["packages", "examples"]) {
    const dir = path.join(root, group);
    if (existsSync(dir)) for (const name of readdirSync(dir).sort()) add(path.join(dir, name));
  }
  for (const name of ["docs", "test-fixtures"]) add(path.join(root, name));
  return projects;
}

/** pnpm's name selector: the exact name, the name without its scope when only one project has it, or a glob. */
function matchFilter(selector, projects, root) {
  const bare = selector.replace(/^\.\.\.\^?|\^?\.\.\.$/g, "");
  if (bare.startsWith(".") || bare.startsWith("{")) {
    const wanted = bare.replace(/^\{|\}$/g, "");
    const pattern = globToRegExp(path.posix.join("", wanted.replace(/^\.\//, "")));
    return projects.filter((p) => pattern.test(path.relative(root, p.dir).split(path.sep).join("/")));
  }
  if (bare.includes("*")) {
    const pattern = globToRegExp(bare);
    return projects.filter((p) => pattern.test(p.name));
  }
  const exact = projects.filter((p) => p.name === bare);
  if (exact.length > 0) return exact;
  const unscoped = projects.filter((p) => p.name.replace(/^@[^/]+\//, "") === bare);
  return unscoped.length === 1 ? unscoped : [];
}

function globToRegExp(glob) {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
}

/** The words of each pnpm command on one line, from `pnpm` on (after `npx -y pnpm@x.y.z`); `&&`, `;` and `|` split. */
function pnpmCommands(line) {
  const commands = [];
  for (const part of line.replace(/\s#.*$/, "").split(/&&|\|\||;|\|/)) {
    const words = part.trim().replace(/^\$\s*/, "").split(/\s+/);
    const at = words.findIndex((w) => w === "pnpm" || /^pnpm@[\w.-]+$/.test(w));
    if (at >= 0) commands.push(words.slice(at + 1));
  }
  return commands;
}

/**
 * The problem with one pnpm command, or undefined when it resolves: its filters each match a project, and the
 * script it runs exists in every project it targets (the root when unfiltered; or `fallbackDir`'s project, for a
 * README read from inside its own folder).
 */
export function resolveCommand(words, projects, root, fallbackDir) {
  const filters = [];
  let dir;
  let i = 0;
  let recursive = false;
  for (; i < words.length; i++) {
    const word = words[i];
    if (!word.startsWith("-")) break;
    const [flag, inline] = word.split("=", 2);
    if (flag === "-r" || flag === "--recursive") recursive = true;
    if (VALUED.has(flag)) {
      const value = inline ?? words[++i];
      if (flag === "--filter" || flag === "-F") filters.push(value);
      if (flag === "--dir" || flag === "-C") dir = value;
    }
  }
  let command = words[i];
  if (command === undefined) return undefined;
  if (command === "run") command = words[i + 1];
  else if (BUILTINS.has(command)) return undefined;
  if (command === undefined || command.startsWith("-") || !/^[\w:.-]+$/.test(command)) return undefined;

  let targets;
  if (filters.length > 0) {
    targets = [];
    for (const filter of filters) {
      const matched = matchFilter(filter.replace(/^["']|["']$/g, ""), projects, root);
      if (matched.length === 0) return `--filter ${filter} matches no workspace project`;
      targets.push(...matched);
    }
  } else if (dir !== undefined) {
    targets = projects.filter((p) => path.resolve(root, dir) === p.dir);
    if (targets.length === 0) return `--dir ${dir} is not a workspace project`;
  } else if (recursive) {
    targets = projects.filter((p) => p.dir !== root);
    return targets.some((p) => command in p.scripts) ? undefined : `no project has a script "${command}"`;
  } else {
    const rootProject = projects.find((p) => p.dir === root);
    const own = fallbackDir === undefined ? undefined : projects.find((p) => p.dir === fallbackDir);
    if (rootProject && command in rootProject.scripts) return undefined;
    if (own && command in own.scripts) return undefined;
    // Not a script: pnpm runs a binary of that name from node_modules/.bin (`pnpm changeset`).
    if ([root, fallbackDir].some((d) => d !== undefined && existsSync(path.join(d, "node_modules", ".bin", command)))) return undefined;
    return `no script "${command}" in the root package.json${own ? ` or ${path.relative(root, own.dir)}/package.json` : ""}`;
  }
  const missing = targets.filter((p) => !(command in p.scripts));
  return missing.length === 0 ? undefined : `no script "${command}" in ${missing.map((p) => p.name).join(", ")}`;
}

/** Command lines in a Markdown file: each line of a shell fence, and each inline code span (which may wrap). */
export function documentedCommands(text) {
  const found = [];
  const lines = text.split("\n");
  let fence;
  const prose = [];
  lines.forEach((line, index) => {
    const opening = /^\s*(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (fence) {
      if (opening && line.trim().startsWith(fence.marker)) fence = undefined;
      else if (fence.shell) found.push({ line: index + 1, text: line });
      prose.push("");
      return;
    }
    if (opening) {
      fence = { marker: opening[1], shell: ["sh", "bash", "shell", "console", "zsh", ""].includes(opening[2]) };
      prose.push("");
      return;
    }
    prose.push(line);
  });
  const body = prose.join("\n");
  for (const match of body.matchAll(/`([^`]+)`/g)) {
    const line = body.slice(0, match.index).split("\n").length;
    found.push({ line, text: match[1].replace(/\s+/g, " ") });
  }
  return found.filter((entry) => pnpmCommands(entry.text).length > 0);
}

/** `file:line problem` for every documented pnpm command in `files` that reaches no script. */
export function checkDocumentedCommands({ root, files }) {
  const projects = readWorkspace(root);
  const problems = [];
  let checked = 0;
  for (const file of files) {
    const own = projects.find((p) => p.dir !== root && path.dirname(file) === p.dir);
    for (const { line, text } of documentedCommands(readFileSync(file, "utf8"))) {
      for (const words of pnpmCommands(text)) {
        checked++;
        const problem = resolveCommand(words, projects, root, own?.dir);
        if (problem) problems.push(`${path.relative(root, file).split(path.sep).join("/")}:${line} \`${text.trim()}\`: ${problem}`);
      }
    }
  }
  return { problems, checked };
}
