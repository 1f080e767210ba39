import type { CapabilitySnapshot } from "../snapshot/types.js";

/**
 * The qualified one-line summary (docs/architecture/spec/cli.md#cli-8-1). It gets pasted alone, so it carries its own caveat:
 * "declared gates" and "runtime policies not observed".
 *
 * @example
 * import type { CapabilitySnapshot } from "@orpc-agent/cli";
 * import { renderHeadline } from "./headline.js";
 * declare const snapshot: CapabilitySnapshot;
 * renderHeadline(snapshot); // "3 capabilities · 2 exposed · declared gates: 1 approval · 1 runtime policy · 1 excluded"
 */
export function renderHeadline(snapshot: CapabilitySnapshot): string {
  const count = snapshot.capabilities.length;
  const exposed = snapshot.capabilities.filter((capability) => capability.expose.length > 0).length;
  const approvals = snapshot.capabilities.filter((capability) => capability.approval?.required === true).length;
  const parts = [
    `${count} ${count === 1 ? "capability" : "capabilities"}`,
    `${exposed} exposed`,
    `declared gates: ${approvals} approval`,
    runtimeSummary(snapshot.runtime),
  ];
  if (snapshot.unexposed.length > 0) parts.push(`${snapshot.unexposed.length} unexposed`);
  if (snapshot.excluded.length > 0) parts.push(`${snapshot.excluded.length} excluded`);
  return parts.join(" · ");
}

export function runtimeSummary(runtime: CapabilitySnapshot["runtime"]): string {
  if (runtime === undefined) return "runtime policies not observed";
  const count = runtime.policies.length;
  if (count === 0) return "no runtime policies";
  return count === 1 ? "1 runtime policy" : `${count} runtime policies`;
}
