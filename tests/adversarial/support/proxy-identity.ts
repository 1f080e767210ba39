// An endpoint behind an authenticating proxy: the proxy names the user in `x-forwarded-user`, the app's front puts
// it in an AsyncLocalStorage for the request, and `createContext` reads it there. The MCP endpoint itself runs with
// `allowUnauthenticated`, so no bearer text tells callers apart: only the principal `createContext` resolves does.
import { AsyncLocalStorage } from "node:async_hooks";

const forwardedUser = new AsyncLocalStorage<string | undefined>();

/** `createContext` for both SDK paths: the proxy's user, or a refusal when the proxy named none. */
export function proxyContext(): { actor: { id: string; kind: "user" }; context: Record<string, never> } | null {
  const user = forwardedUser.getStore();
  return user === undefined || user === "" ? null : { actor: { id: user, kind: "user" }, context: {} };
}

/** The app's front: each request runs with the user its proxy header names. */
export function behindProxy<T extends (request: Request) => Promise<Response>>(fetch: T): T {
  return ((request: Request) => forwardedUser.run(request.headers.get("x-forwarded-user") ?? undefined, () => fetch(request))) as T;
}
