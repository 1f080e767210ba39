import type { ExposureSurface } from "../../vocabulary/types.js";
import { capabilityChanges } from "../../drift/capability-changes.js";
import { capabilityEntry } from "../../drift/capability-entry.js";
import { pairByOccurrence } from "../../drift/pair-by-occurrence.js";
import type { CapabilityEntry, Change } from "../../drift/types.js";
import type { AgentGovernance } from "../../governance/types.js";
import { sha256HexAsync } from "../../approvals/hash.js";
import { canonicalJson } from "../../approvals/canonical-json.js";
import { defaultToolName } from "../../registry/tool-name.js";
import type { CapabilityPlan } from "../plan.js";

/**
 * What an approval was asked under (issue 29): the capability's governance entry, as `orpc-agent snapshot` records
 * it, and the enforced policies that applied on the request's surface after approval (`<phase>:<name>`, in order).
 * The description and input schema are left out: neither widens anything, and R8 binds the input on its own.
 */
export type ApprovalDefinition = { capability: CapabilityEntry; policies: string[] };

const cache = new WeakMap<CapabilityPlan, Map<ExposureSurface, Promise<{ definition: ApprovalDefinition; digest: string }>>>();

export function approvalDefinition(plan: CapabilityPlan, surface: ExposureSurface): Promise<{ definition: ApprovalDefinition; digest: string }> {
  let bySurface = cache.get(plan);
  if (bySurface === undefined) cache.set(plan, (bySurface = new Map()));
  let found = bySurface.get(surface);
  if (found === undefined) {
    const definition: ApprovalDefinition = {
      capability: capabilityEntry(plan.capability, { descriptions: false, defaultToolName, inputSchemaHash: () => null }),
      policies: [
        ...plan.policies.invocation[surface].map((p) => `invocation:${p.name}`),
        ...plan.policies.execution[surface].map((p) => `execution:${p.name}`),
      ],
    };
    found = sha256HexAsync(canonicalJson(definition)).then((digest) => ({ definition, digest: `sha256:${digest}` }));
    bySurface.set(surface, found);
  }
  return found;
}

const manifests = new WeakMap<AgentGovernance, Promise<string | undefined>>();

/** The digest of the governance manifest, once per governance; undefined when it has no canonical form. */
export function manifestDigest(governance: AgentGovernance): Promise<string | undefined> {
  let found = manifests.get(governance);
  if (found === undefined) {
    let text: string | undefined;
    try {
      text = canonicalJson(JSON.parse(JSON.stringify(governance.manifest)));
    } catch {
      text = undefined;
    }
    found = text === undefined ? Promise.resolve(undefined) : sha256HexAsync(text).then((hex) => `sha256:${hex}`);
    manifests.set(governance, found);
  }
  return found;
}

/**
 * The widening changes between the definition an approval was asked under and today's; empty when none widened.
 * The stored definition counts only if it hashes to the stored digest (which the seal covers), so an edited
 * definition can never hide a widening.
 */
export async function wideningSince(record: { definition?: unknown; definitionDigest?: string }, now: { definition: ApprovalDefinition; digest: string }): Promise<Change[]> {
  if (record.definitionDigest === now.digest) return [];
  const was = record.definition as Partial<ApprovalDefinition> | null;
  const unreadable: Change[] = [{ kind: "widening", id: now.definition.capability.id, field: "definition", message: "the recorded definition is unreadable" }];
  let storedDigest: string | undefined;
  try {
    storedDigest = `sha256:${await sha256HexAsync(canonicalJson(was))}`;
  } catch {
    return unreadable;
  }
  if (storedDigest !== record.definitionDigest) return unreadable;
  return classify(was, now.definition);
}

function classify(was: Partial<ApprovalDefinition> | null, now: ApprovalDefinition): Change[] {
  // A stored definition that is not one (edited, or written by something else) cannot show what was approved.
  if (typeof was !== "object" || was === null || typeof was.capability !== "object" || !Array.isArray(was.policies)) {
    return [{ kind: "widening", id: now.capability.id, field: "definition", message: "the recorded definition is unreadable" }];
  }
  let changes: Change[];
  let removed: string[];
  try {
    changes = capabilityChanges(was.capability as CapabilityEntry, now.capability);
    removed = pairByOccurrence(was.policies as string[], now.policies).removed;
  } catch {
    return [{ kind: "widening", id: now.capability.id, field: "definition", message: "the recorded definition is unreadable" }];
  }
  if (removed.length > 0) changes.push({ kind: "widening", id: now.capability.id, field: "policies", message: `policy no longer applies: ${removed.join(", ")}` });
  return changes.filter((change) => change.kind === "widening");
}
