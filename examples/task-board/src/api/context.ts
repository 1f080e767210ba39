import type { Store } from "../domain/store.js";

/** The oRPC context every procedure of this app receives, agent or not. */
export type AppContext = {
  store: Store;
  /** The signed-in person; set by the app's own authentication. */
  user: { id: string; role: "member" | "admin" };
};
