import { useState } from "react";
import { decide, type PendingView } from "./api.js";

/** Pending requests the signed-in person filed or decides. Deciding goes to the app, which asks the runtime. */
export function Approvals({ as, pending, onDecided }: { as: string; pending: PendingView[]; onDecided: () => void }) {
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  async function answer(id: string, decision: "approved" | "rejected") {
    setNotice(await decide(id, as, decision));
    onDecided();
  }
  return (
    <section id="approvals">
      <h2>Approvals</h2>
      {notice && (
        <p id="notice" className={notice.ok ? "ok" : "refused"}>
          {notice.text}
        </p>
      )}
      {pending.length === 0 && <p className="muted">No pending approvals.</p>}
      {pending.map((request) => (
        <div key={request.id} className="card" data-pending={request.id}>
          <h3>
            {request.capabilityId} <span className="muted">requested by {request.requester.id === as ? "you" : request.requester.name}</span>
          </h3>
          <p>{request.reasons.join(" ")}</p>
          <pre>{JSON.stringify(request.input)}</pre>
          <p className="muted">{request.decider ? `Decided by ${request.decider.id === as ? "you" : request.decider.name}` : ""}</p>
          <button value="approved" onClick={() => void answer(request.id, "approved")}>
            Approve
          </button>
          <button value="rejected" onClick={() => void answer(request.id, "rejected")}>
            Reject
          </button>
        </div>
      ))}
    </section>
  );
}
