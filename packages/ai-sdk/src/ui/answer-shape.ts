/**
 * A browser's answer to a requester confirmation, when it does not arrive as an `approval-responded` part (`ai` 5),
 * or beside one to choose the card's "allow for this conversation" (`ai` 6, 7: the SDK's approval response carries
 * no such choice). `grant: "conversation"` takes the grant the card offered (SI-13): only with `approved: true`, and
 * the server decides its terms, never the browser.
 */
export type ConfirmationAnswer = { approvalId: string; approved: boolean; reason?: string; grant?: "conversation" };

/** The keys of a `ConfirmationAnswer`: the app's answers carry no others. */
const ANSWER_KEYS: ReadonlySet<string> = new Set(["approvalId", "approved", "reason", "grant"]);

/**
 * An answer as it arrived, before its shape is checked: the SDK's `approval` object of an `approval-responded` part
 * (its id under `id`, beside keys of the SDK's own such as `descriptor` or `signature`), or one of the app's
 * answers (`ai` 5, exactly the keys of `ConfirmationAnswer`).
 */
export type ReceivedAnswer = { from: "part" | "app"; value: unknown };

/**
 * A part's answer with the app's answer for the same approval beside it (`ai` 6, 7: the card's "allow for this
 * conversation"). Both must be well formed, name the same approval and say the same yes or no; the grant choice is
 * the app answer's. Otherwise `undefined`: contradicting answers decide nothing (SI-4).
 */
export function withCompanion(answer: ConfirmationAnswer | undefined, companion: unknown): ConfirmationAnswer | undefined {
  if (answer === undefined) return undefined;
  const app = wellFormedAnswer({ from: "app", value: companion });
  if (app === undefined || app.approvalId !== answer.approvalId || app.approved !== answer.approved) return undefined;
  if (answer.grant !== undefined && app.grant === undefined) return answer;
  return app.grant === undefined ? answer : { ...answer, grant: app.grant };
}

/**
 * The answer when it is well formed: a non-empty string approval id, `approved` a boolean, `reason` absent or a
 * string, and for the app's answers no other key. Anything else is `undefined`, which decides nothing (SI-4):
 * `approved: "true"` is not a yes, and it is not a no either. Nothing is coerced.
 */
export function wellFormedAnswer(received: ReceivedAnswer): ConfirmationAnswer | undefined {
  const { value } = received;
  if (!isPlainObject(value)) return undefined;
  // Each field read once: what is checked is what decides, whatever getters the object has.
  const approvalId = received.from === "part" ? value.id : value.approvalId;
  const { approved, reason, grant } = value;
  if (typeof approvalId !== "string" || approvalId.length === 0 || typeof approved !== "boolean") return undefined;
  if (reason !== undefined && typeof reason !== "string") return undefined;
  // SI-13: the one grant choice is the card's offer, and only on a yes; terms, scopes or a no with a grant decide nothing.
  if (grant !== undefined && (grant !== "conversation" || approved !== true)) return undefined;
  if (received.from === "app" && Object.keys(value).some((key) => !ANSWER_KEYS.has(key))) return undefined;
  const answer: ConfirmationAnswer = { approvalId, approved };
  if (reason !== undefined) answer.reason = reason;
  if (grant !== undefined) answer.grant = grant;
  return answer;
}

/** The approval id an answer names, when it names one as a string: for reporting a refused answer, never for deciding. */
export function namedApprovalId(received: ReceivedAnswer): string {
  const { value } = received;
  if (typeof value !== "object" || value === null) return "";
  const id = received.from === "part" ? (value as { id?: unknown }).id : (value as { approvalId?: unknown }).approvalId;
  return typeof id === "string" ? id : "";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
