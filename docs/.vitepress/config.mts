import { defineConfig, type MarkdownRenderer } from "vitepress";

// Links written as `repo:<path>` name files of the repository (tests, sources). With DOCS_REPOSITORY_URL set
// (e.g. https://github.com/<owner>/<repo>) they link to that file on the main branch; without it they render as
// the path in code style. scripts/check-docs.mjs checks that every such file exists.
const repositoryUrl = process.env.DOCS_REPOSITORY_URL?.replace(/\/+$/, "");

function repositoryLinks(md: MarkdownRenderer): void {
  md.core.ruler.push("orpc_agent_repo_links", (state) => {
    for (const block of state.tokens) {
      const children = block.type === "inline" ? block.children : null;
      if (!children) continue;
      for (let i = 0; i < children.length; i++) {
        const open = children[i]!;
        const href = open.type === "link_open" ? open.attrGet("href") : null;
        if (!href?.startsWith("repo:")) continue;
        const file = href.slice("repo:".length);
        if (repositoryUrl) {
          open.attrSet("href", `${repositoryUrl}/blob/main/${file}`);
          continue;
        }
        const close = children.findIndex((token, j) => j > i && token.type === "link_close");
        open.type = "html_inline";
        open.content = `<code class="repo-path">`;
        if (close > 0) {
          children[close]!.type = "html_inline";
          children[close]!.content = "</code>";
        }
      }
    }
  });
}

export default defineConfig({
  title: "oRPC Agent",
  description: "Governed AI-agent access to an existing oRPC application: capabilities, policies, approvals and audit.",
  srcExclude: ["README.md"],
  cleanUrls: false,
  lastUpdated: false,
  markdown: { config: repositoryLinks },
  themeConfig: {
    search: { provider: "local" },
    outline: { level: [2, 3] },
    nav: [
      { text: "Guide", link: "/getting-started" },
      { text: "Reference", link: "/reference/" },
      { text: "Security", link: "/security/invariants" },
      { text: "Architecture", link: "/architecture/packages" },
    ],
    sidebar: [
      { text: "Getting started", link: "/getting-started" },
      {
        text: "Concepts",
        items: [
          { text: "Capabilities", link: "/concepts/capabilities" },
          { text: "Exposure and surfaces", link: "/concepts/exposure" },
          { text: "The runtime", link: "/concepts/runtime" },
          { text: "Policies", link: "/concepts/policies" },
          { text: "Approvals", link: "/concepts/approvals" },
          { text: "Audit", link: "/concepts/audit" },
          { text: "Errors", link: "/concepts/errors" },
          { text: "Actor and context", link: "/concepts/context" },
        ],
      },
      {
        text: "Guides",
        items: [
          { text: "Defining capabilities", link: "/guides/defining-capabilities" },
          { text: "Streaming and progress", link: "/guides/streaming-and-progress" },
          { text: "Exposure per surface", link: "/guides/exposure" },
          { text: "Adding policies", link: "/guides/policies" },
          { text: "Shadow policies", link: "/guides/shadow-policies" },
          { text: "The acting agent", link: "/guides/acting-agent" },
          { text: "Human approval", link: "/guides/approvals" },
          { text: "Quorum approvals", link: "/guides/quorum-approvals" },
          { text: "Standing grants", link: "/guides/standing-grants" },
          { text: "Tamper-evident approvals", link: "/guides/tamper-evident-approvals" },
          { text: "Signed decision links", link: "/guides/decision-links" },
          { text: "Notifying approvers", link: "/guides/notifying-approvers" },
          { text: "Approvals in a chat UI", link: "/guides/approvals-in-a-chat-ui" },
          { text: "Approvals over MCP", link: "/guides/mcp-approvals" },
          { text: "Auditing", link: "/guides/auditing" },
          { text: "Verifiable audit", link: "/guides/verifiable-audit" },
          { text: "MCP over HTTP", link: "/guides/mcp-http" },
          { text: "MCP: moving to SDK v2", link: "/guides/mcp-migration" },
          { text: "Testing capabilities", link: "/guides/testing" },
          { text: "The CI drift gate", link: "/guides/drift-gate" },
          { text: "Going distributed", link: "/guides/distributed" },
          { text: "Running several instances", link: "/guides/running-several-instances" },
          { text: "Workflow steps with DBOS", link: "/guides/workflows" },
          { text: "Tracing with OpenTelemetry", link: "/guides/tracing" },
          { text: "Migrating hand-written tools", link: "/guides/migrating" },
          { text: "oRPC 2", link: "/guides/orpc-2" },
          { text: "Writing an adapter", link: "/guides/writing-an-adapter" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "Overview", link: "/reference/" },
          { text: "@orpc-agent/core", link: "/reference/core" },
          { text: "core/schema", link: "/reference/core-schema" },
          { text: "core/drift", link: "/reference/core-drift" },
          { text: "core/adapter", link: "/reference/core-adapter" },
          { text: "core/client, http, server", link: "/reference/core-remote" },
          { text: "@orpc-agent/ai-sdk", link: "/reference/ai-sdk" },
          { text: "@orpc-agent/mcp", link: "/reference/mcp" },
          { text: "@orpc-agent/testing", link: "/reference/testing" },
          { text: "@orpc-agent/postgres", link: "/reference/postgres" },
          { text: "@orpc-agent/cli", link: "/reference/cli" },
          { text: "@orpc-agent/opentelemetry", link: "/reference/opentelemetry" },
          { text: "@orpc-agent/dbos", link: "/reference/dbos" },
          { text: "@orpc-agent/notify", link: "/reference/notify" },
          { text: "Configuration", link: "/reference/configuration" },
          { text: "Error codes", link: "/reference/errors" },
          { text: "Audit events", link: "/reference/audit-events" },
        ],
      },
      {
        text: "Security",
        items: [
          { text: "Invariants and their tests", link: "/security/invariants" },
          { text: "Threat model", link: "/security/threat-model" },
          { text: "What we do not claim", link: "/security/non-claims" },
        ],
      },
      {
        text: "Architecture",
        items: [
          { text: "Package boundaries", link: "/architecture/packages" },
          { text: "The 15-stage pipeline", link: "/architecture/pipeline" },
          { text: "Decision records", link: "/architecture/decisions" },
        ],
      },
      {
        text: "Specification",
        items: [
          { text: "Overview", link: "/architecture/spec/" },
          { text: "Core", link: "/architecture/spec/core" },
          { text: "Adapters", link: "/architecture/spec/adapters" },
          { text: "Postgres", link: "/architecture/spec/postgres" },
          { text: "CLI", link: "/architecture/spec/cli" },
          { text: "Distributed", link: "/architecture/spec/distributed" },
          { text: "Amendments, December 2026", link: "/architecture/spec/amendments-2026-12" },
        ],
      },
    ],
    footer: { message: "Independent community project, not affiliated with or endorsed by the oRPC maintainers. MIT licensed." },
  },
});
