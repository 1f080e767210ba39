import { useState } from "react";
import { decide, type ApprovalCard } from "./api.js";

/**
 * Requests the signed-in person filed or decides, as core's approval view describes them. Approve / Reject appear only
 * for someone the runtime would let decide (`mayDecide`, and the board's owner); deciding goes to the app, which asks
 * the runtime.
 */
export function Approvals({ as, cards, onDecided }: { as: string; cards: ApprovalCard[]; onDecided: () => void }) {
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  async function answer(id: string, decision: "approved" | "rejected", comment: string) {
    setNotice(await decide(id, as, decision, comment));
    onDecided();
  }
  const pending = cards.filter((card) => card.status === "pending");
  const decided = cards.filter((card) => card.status !== "pending");
  return (
    <section id="approvals">
      <h2>Approvals</h2>
      {notice && (
        <p id="notice" className={notice.ok ? "ok" : "refused"}>
          {notice.text}
        </p>
      )}
      {pending.length === 0 && <p className="muted">No pending approvals.</p>}
      {pending.map((card) => (
        <Request key={card.id} card={card} as={as} onAnswer={answer} />
      ))}
      {decided.length > 0 && <h3 className="muted">Decided</h3>}
      {decided.map((card) => (
        <Request key={card.id} card={card} as={as} onAnswer={answer} />
      ))}
    </section>
  );
}

type Answer = (id: string, decision: "approved" | "rejected", comment: string) => Promise<void>;

function Request({ card, as, onAnswer }: { card: ApprovalCard; as: string; onAnswer: Answer }) {
  const [comment, setComment] = useState("");
  // A destructive capability asks once more before an approval is sent.
  const [confirming, setConfirming] = useState(false);
  const you = (id: string, name: string) => (id === as ? "you" : name);
  const marker = card.risk.destructive ? "destructive" : card.risk.highRisk ? "high-risk write" : null;
  const state = card.status === "pending" ? { "data-pending": card.id } : { "data-decided": card.id };
  return (
    <div className={`card approval ${card.status}`} {...state} data-status={card.status}>
      <h3>
        {card.title} <span className="muted">requested by {you(card.requester.id, card.requester.name)}</span>
      </h3>
      {card.description && <p className="description">{card.description}</p>}
      <p className="risk">
        {marker && (
          <strong className={`marker ${card.risk.destructive ? "destructive" : "high-risk"}`} data-marker={marker}>
            {marker}
          </strong>
        )}{" "}
        {card.risk.label}
      </p>
      <p className="reasons">{card.reasons.join(" ")}</p>
      <p className="muted when">
        {card.actingAgent ? `via ${card.actingAgent} · ` : ""}asked {card.askedAt}
        {card.expiresIn ? ` · ${card.expiresIn}` : ""}
      </p>
      {card.fields ? (
        <dl className="fields">
          {card.fields.map((field) => (
            <div key={field.key} data-field={field.key}>
              <dt>{field.label}</dt>
              <dd>{field.value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">The input is withheld from approvers.</p>
      )}
      <p className="progress">
        {card.progress}
        {card.voters.length > 0 ? ` · approved by ${card.voters.join(", ")}` : ""}
      </p>
      {card.decision ? (
        <p className="decision" data-decision={card.decision.status}>
          Decided by {card.decision.by}: {card.decision.status}
          {card.decision.comment ? <q className="comment">{card.decision.comment}</q> : null}
        </p>
      ) : (
        <p className="muted who">
          {card.decider ? (card.decider.id === as ? "Awaiting your decision" : `Awaiting a decision by ${card.decider.name}, the board's owner`) : "Awaiting a decision"}
        </p>
      )}
      {card.canDecide && card.status === "pending" && (
        <div className="decide">
          <textarea name="comment" placeholder="Comment (sent with your decision)" maxLength={500} value={comment} onChange={(event) => setComment(event.target.value)} />
          {confirming ? (
            <p className="confirm">
              This is destructive and cannot be undone.{" "}
              <button value="confirm-approved" onClick={() => void onAnswer(card.id, "approved", comment)}>
                Yes, approve
              </button>
              <button value="cancel" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </p>
          ) : (
            <>
              <button value="approved" onClick={() => (card.risk.destructive ? setConfirming(true) : void onAnswer(card.id, "approved", comment))}>
                Approve
              </button>
              <button value="rejected" onClick={() => void onAnswer(card.id, "rejected", comment)}>
                Reject
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
