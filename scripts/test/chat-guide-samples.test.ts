// The "Approvals in a chat UI" guide (issue 25): its samples compile against the real `ai` and `@ai-sdk/react` of
// every major their directives name, and a broken sample fails. The docs checker's own snippet compiler runs on
// copies of the guide in a git-ignored scratch folder of this repository (so imports resolve as from docs/), each
// copy with one break; the unbroken copy must report nothing.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkMarkdownSnippets } from "../check-readme-snippets.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const guide = readFileSync(path.join(root, "docs/guides/approvals-in-a-chat-ui.md"), "utf8");
mkdirSync(path.join(root, ".tmp"), { recursive: true });
const scratch = mkdtempSync(path.join(root, ".tmp", "chat-guide-samples-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The folders check-docs lets a docs page's bare imports fall back to: every workspace package. */
const packageDirs = readdirSync(path.join(root, "packages"))
  .map((name) => path.join(root, "packages", name))
  .filter((dir) => existsSync(path.join(dir, "package.json")));

/** One break per sample the guide's prose sends readers to copy; `from` must occur in the guide exactly once. */
const BREAKS = {
  // The React client: a property @ai-sdk/react's addToolApprovalResponse does not take (ai 6 and 7 only).
  "react-hook": { from: "addToolApprovalResponse({ id: v.approvalId, approved: true })", to: "addToolApprovalResponse({ approvalId: v.approvalId, approved: true })" },
  // The React client: an attribute React's JSX types do not have.
  "react-jsx": { from: "<button onClick={() => addToolApprovalResponse({ id: v.approvalId, approved: false })}>", to: "<button onClik={() => addToolApprovalResponse({ id: v.approvalId, approved: false })}>" },
  // The framework-free client: a field the typed card part does not have.
  "client-parts": { from: "approvalId: part.data.approvalId, state: part.data.state", to: "approvalId: part.data.id, state: part.data.state" },
  // The server route: the loop's result where the governed UI stream belongs.
  "server-route": { from: "writer.merge(chat.toUIMessageStream(result.toUIMessageStream()));", to: "writer.merge(chat.toUIMessageStream(result));" },
} as const;

function page(name: string, text: string): string {
  const file = path.join(scratch, `${name}.md`);
  writeFileSync(file, text);
  return file;
}

describe("the chat-UI guide's samples", { timeout: 180_000 }, () => {
  it("compile on each listed ai major against the real @ai-sdk/react and React types; each broken copy fails on its sample and major", () => {
    const files = [page("clean", guide)];
    for (const [name, { from, to }] of Object.entries(BREAKS)) {
      expect(guide.split(from).length - 1, `${name}: the guide contains the text to break once`).toBe(1);
      files.push(page(name, guide.replace(from, to)));
    }
    const { problems, checked } = checkMarkdownSnippets({ root, files, fallbackDirs: packageDirs }) as { problems: string[]; checked: number };
    const of = (name: string) => problems.filter((problem) => problem.includes(`/${name}.md `));

    expect(checked).toBe(5 * files.length);
    expect(of("clean")).toEqual([]);
    // Snippet #5 is the tsx client (ai 6, 7), #4 the client module, #2 the route (ai 5, 6, 7).
    for (const major of [6, 7]) {
      expect(of("react-hook")).toContainEqual(expect.stringMatching(new RegExp(`snippet #5 \\(ai ${major}\\) .* TS2561 .*'approvalId' does not exist`)));
      expect(of("react-jsx")).toContainEqual(expect.stringMatching(new RegExp(`snippet #5 \\(ai ${major}\\) .* TS2322 .*'onClik' does not exist`)));
    }
    for (const major of [5, 6, 7]) {
      expect(of("client-parts")).toContainEqual(expect.stringMatching(new RegExp(`snippet #4 \\(ai ${major}\\) .* TS2339 Property 'id' does not exist`)));
      expect(of("server-route")).toContainEqual(expect.stringMatching(new RegExp(`snippet #2 \\(ai ${major}\\) .* TS2345 `)));
    }
    // Every problem is one of the breaks: nothing else in the guide fails.
    expect(problems.length).toBe(Object.keys(BREAKS).reduce((sum, name) => sum + of(name).length, 0));
    for (const name of Object.keys(BREAKS)) for (const problem of of(name)) expect(problem).toMatch(name.startsWith("react") ? /snippet #5 / : name === "client-parts" ? /snippet #4 / : /snippet #2 /);
  });
});
