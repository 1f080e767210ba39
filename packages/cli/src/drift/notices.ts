import type { CapabilitySnapshot } from "../snapshot/types.js";

/**
 * The stderr notices of docs/architecture/spec/cli.md#cli-7-4 (a) and (b): the baseline predates what the gate now records, so
 * the transition is neutral but that part of the gate stays inert until the baseline is rewritten.
 */
export function driftNotices(
  before: CapabilitySnapshot,
  after: CapabilitySnapshot,
  snapshotLabel: string,
  rewriteCommand: string,
): string[] {
  const notices: string[] = [];
  if (before.runtime === undefined && after.runtime !== undefined) {
    notices.push(
      `orpc-agent: ${snapshotLabel} predates runtime-policy recording; ${count(after.runtime.policies.length)} configured ` +
        `and NOT covered by this gate yet. Run: ${rewriteCommand}`,
    );
  }
  if (before.runtime !== undefined && after.runtime !== undefined) {
    const unscoped = new Set(before.runtime.policies.filter((policy) => policy.candidates === undefined).map((policy) => policy.name));
    const gained = after.runtime.policies.filter((policy) => policy.candidates !== undefined && unscoped.has(policy.name));
    if (gained.length > 0) {
      notices.push(
        `orpc-agent: ${snapshotLabel} predates runtime-policy scope recording; ${count(gained.length)} configured ` +
          `and NOT covered by this gate yet. Run: ${rewriteCommand}`,
      );
    }
  }
  return notices;
}

function count(n: number): string {
  return n === 1 ? "1 runtime policy is" : `${n} runtime policies are`;
}
