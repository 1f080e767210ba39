import type { McpTool as Tool } from "./wire-types.js";
import type { MCPGovernanceOptions } from "./governance-options.js";

export const DEFAULT_RESUME_TOOL_NAME = "approvals_resume";

const DEFAULT_DESCRIPTION =
  "Runs an operation that a person has already approved, exactly once, as the user who originally requested it. " +
  "This tool cannot approve or reject anything: approvals are decided by an authorized person in the application. " +
  "It fails while the approval is still pending, and after it was rejected, expired or already used.";

// docs/architecture/spec/adapters.md#adapters-3-7: the one argument, nothing else.
const INPUT_SCHEMA: Tool["inputSchema"] = {
  type: "object",
  properties: { approvalId: { type: "string" } },
  required: ["approvalId"],
  additionalProperties: false,
};

export type ResumeTool = { name: string; description: string };

/** The synthetic resume tool when `approvals.resumeTool` enables it (docs/architecture/spec/adapters.md#adapters-3-7). */
export function resumeToolOf(options: MCPGovernanceOptions): ResumeTool | undefined {
  const option = options.approvals?.resumeTool;
  if (option === undefined || option === false) return undefined;
  const custom = option === true ? {} : option;
  return { name: custom.name ?? DEFAULT_RESUME_TOOL_NAME, description: custom.description ?? DEFAULT_DESCRIPTION };
}

/** Its `tools/list` entry: listed whenever enabled, outside `filter`. */
export function resumeToolListing(tool: ResumeTool): Tool {
  return { name: tool.name, description: tool.description, inputSchema: structuredCopy(INPUT_SCHEMA) };
}

export type ResumeIssue = { path: string[]; message: string };

/**
 * Reads the resume tool's arguments against its own schema. The adapter owns this tool, so checking its input is
 * not the input validation adapters must leave to the runtime (docs/architecture/spec/adapters.md#adapters-1-2 item 1 concerns capabilities).
 */
export function readApprovalId(args: Record<string, unknown>): { approvalId: string } | { issues: ResumeIssue[] } {
  const issues: ResumeIssue[] = [];
  const approvalId = args.approvalId;
  if (typeof approvalId !== "string" || approvalId.length === 0) {
    issues.push({ path: ["approvalId"], message: "Expected the approvalId of an approval request, a non-empty string." });
  }
  for (const key of Object.keys(args)) {
    if (key !== "approvalId") issues.push({ path: [key], message: "Unrecognized argument; only approvalId is accepted." });
  }
  return issues.length > 0 ? { issues } : { approvalId: approvalId as string };
}

function structuredCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
