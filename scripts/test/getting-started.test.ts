// Docs check (issue 27): the getting-started page tells a newcomer their package must be ESM, and its shell
// commands use one style: npm for the reader's app, the repository's pinned pnpm through npx inside it.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

const page = readFileSync(new URL("../../docs/getting-started.md", import.meta.url), "utf8");
const shellLines = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) => match[1]!.split("\n").filter(Boolean));

it("says the package must be ESM and shows \"type\": \"module\"", () => {
  expect(page).toContain('"type": "module"');
  expect(page).toMatch(/ESM only/);
});

it("every shell command is `npm install …` or `npx -y pnpm@<pinned> …`", () => {
  expect(shellLines.length).toBeGreaterThan(0);
  for (const line of shellLines) expect(line).toMatch(/^(npm install |npx -y pnpm@\d+\.\d+\.\d+ )/);
});

it("prose names the repository scripts without a bare `pnpm` command style", () => {
  expect(page).not.toMatch(/`pnpm (demo|test|install)/);
});
