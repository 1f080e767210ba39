import type { GrantCaps, GrantCondition, GrantConditionOperator, GrantRequest, GrantRecord, GrantScope } from "@orpc-agent/core";
import { escapeHtml } from "./html.js";

// The approvals page's "approve with a grant" form (docs/guides/standing-grants.md): uses, lifetime, scope and
// conditions written as the approver would say them ("amount lte 100 and customerId eq c_ada"). The form only
// proposes; the runtime checks the caps, the approver's right to issue and every binding on decide.

const OPERATORS: ReadonlySet<string> = new Set<GrantConditionOperator>(["eq", "in", "lt", "lte", "gt", "gte", "prefix"]);

/** Words an approver uses for input paths; `amount` is in currency units, the input in cents. */
const FIELDS: Record<string, { path: string; scale?: number }> = { amount: { path: "/amountCents", scale: 100 } };

/**
 * The grant the form asks for, `undefined` when its box is unchecked, or a message saying what it could not read
 * (nothing is decided then).
 */
export function grantFromForm(form: URLSearchParams): GrantRequest | undefined | { error: string } {
  if (form.get("grant") !== "on") return undefined;
  const uses = Number(form.get("grantUses"));
  const minutes = Number(form.get("grantTtlMinutes"));
  const scope = form.get("grantScope") === "conversation" ? "conversation" : "actor";
  if (!Number.isInteger(uses) || uses < 1) return { error: "Uses must be a whole number of at least 1." };
  if (!Number.isFinite(minutes) || minutes <= 0) return { error: "The lifetime must be a number of minutes above 0." };
  const conditions = parseConditions(form.get("grantConditions") ?? "");
  if ("error" in conditions) return conditions;
  return { uses, ttlMs: Math.round(minutes * 60_000), scope: scope as GrantScope, conditions: conditions.list };
}

/** `field op value` joined by `and`; `in` takes a comma-separated list. Numbers are numbers, anything else a string. */
export function parseConditions(text: string): { list: GrantCondition[] } | { error: string } {
  const list: GrantCondition[] = [];
  const trimmed = text.trim();
  if (trimmed === "") return { list };
  for (const clause of trimmed.split(/\s+and\s+/i)) {
    const match = /^([A-Za-z_][\w./]*)\s+(\w+)\s+(.+)$/.exec(clause.trim());
    if (!match || !OPERATORS.has(match[2]!)) return { error: `Could not read the condition "${clause.trim()}": write field op value, op one of ${[...OPERATORS].join(", ")}.` };
    const [, field, op, raw] = match as unknown as [string, string, GrantConditionOperator, string];
    const alias = FIELDS[field];
    const path = alias?.path ?? `/${field.split(".").join("/")}`;
    const scalar = (value: string): unknown => {
      const number = Number(value);
      if (value.trim() !== "" && Number.isFinite(number)) return alias?.scale ? Math.round(number * alias.scale) : number;
      return value.trim();
    };
    list.push({ path, op, value: op === "in" ? raw.split(",").map(scalar) : scalar(raw) });
  }
  return { list };
}

/** The form beside Approve, for a capability that declares grant caps; defaults are the caps' smallest sensible grant. */
export function grantFields(caps: GrantCaps | undefined): string {
  if (caps === undefined) return "";
  const maxMinutes = Math.floor(caps.maxTtlMs / 60_000);
  // Actor scope first: a request filed outside a chat has no conversation, and a conversation grant needs one.
  const ordered = [...caps.scopes].sort((a, b) => (a === "actor" ? -1 : b === "actor" ? 1 : 0));
  const scopes = ordered.map((scope) => `<option value="${scope}">${scope === "actor" ? "all of the requester's conversations" : "the request's conversation"}</option>`).join("");
  return `<fieldset class="grant"><legend><label><input type="checkbox" name="grant" value="on"> Also allow more calls like this (a standing grant)</label></legend>
    <label>Uses <input type="number" name="grantUses" min="1" max="${caps.maxUses}" value="1"></label>
    <label>For (minutes) <input type="number" name="grantTtlMinutes" min="1" max="${maxMinutes}" value="${Math.min(60, maxMinutes)}"></label>
    <label>In <select name="grantScope">${scopes}</select></label>
    <label>Conditions <input type="text" name="grantConditions" size="40" placeholder="amount lte 100 and customerId eq c_ada"></label>
    <span class="muted">at most ${caps.maxUses} uses, ${maxMinutes} minutes</span></fieldset>`;
}

/** One active grant as the page lists it: its terms as written, what is left, and a Revoke button. */
export function grantRow(grant: GrantRecord, as: string, nameOf: (id: string) => string): string {
  const conditions = grant.conditions.map((c) => `${c.path} ${c.op} ${JSON.stringify(c.value)}`).join(" and ") || "no conditions";
  return `<div class="card" data-grant="${escapeHtml(grant.id)}">
    <h3>${escapeHtml(grant.capabilityId)} <span class="muted">for ${escapeHtml(nameOf(grant.actor.id))}, issued by ${escapeHtml(grant.issuers.map((i) => nameOf(i.id)).join(", "))}</span></h3>
    <p class="terms">${escapeHtml(conditions)}</p>
    <p class="left">${grant.usesLeft} of ${grant.uses} uses left · ${escapeHtml(grant.scope)} scope · expires ${escapeHtml(grant.expiresAt.toISOString())}</p>
    <form method="post" action="/grants/${encodeURIComponent(grant.id)}/revoke?as=${escapeHtml(as)}"><button class="revoke">Revoke</button></form></div>`;
}
