import { DEFAULT_APPROVALS_TABLE } from "../ddl.js";
import { assertTableName } from "../table-name.js";
import { assertChannelName } from "./listen.js";

/**
 * The NOTIFY channel of an approvals table's decisions: `<table>_decided`, with a schema-qualified table's "." as "_",
 * so two schemas on one database get their own channels. Names that fold to the same channel (`a_b.t`, `a.b_t`) share
 * one, which costs only early re-reads: a heard id makes a listener look again, never decides anything. The
 * coordinator and the feed derive it the same way.
 *
 * @example
 * import { pgDecisionChannel } from "@orpc-agent/postgres";
 * pgDecisionChannel(); // "orpc_agent_approvals_decided"
 * pgDecisionChannel("billing.approvals"); // "billing_approvals_decided"
 */
export function pgDecisionChannel(table: string = DEFAULT_APPROVALS_TABLE): string {
  assertTableName(table);
  const name = table.replace(".", "_");
  // A channel is an identifier (63 characters); a longer derivation keeps a prefix and a hash of the whole name.
  const channel = name.length + "_decided".length <= 63 ? `${name}_decided` : `${name.slice(0, 46)}_${fnv1a(name)}_decided`;
  assertChannelName(channel, "decision channel");
  return channel;
}

/** 32-bit FNV-1a as 8 hex digits: deterministic on every instance, no crypto module needed. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
