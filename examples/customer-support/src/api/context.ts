import type { Store } from "../domain/store.js";

/** The oRPC context every procedure of this app receives, agent or not. */
export type AppContext = {
  store: Store;
  /** The signed-in staff member or service; set by the app's own authentication. */
  user: { id: string; role: "agent-operator" | "support" | "manager" | "admin" };
};
