import type { AuthInfo } from "@modelcontextprotocol/server";
import type { MCPGovernanceOptions, MCPIdentity } from "../governance-options.js";

/** What the serving entry verified about one request: `authInfo` comes from bearer verification, never from the client. */
export type MCPRequestAuth = {
  /** The verified token; absent over stdio and on an `allowUnauthenticated` endpoint. */
  authInfo?: AuthInfo;
  /** The protocol revision family the request speaks: `modern` is 2026-07-28, `legacy` a 2025-era client. */
  era: "modern" | "legacy";
};

/** The governed server's options on the v2 SDK: the v1 options, with `createContext` judging each request. */
export type MCPOptions<TContext = unknown> = MCPGovernanceOptions & {
  /**
   * Judges one request's verified credentials and returns who is asking; `null`/`undefined` refuses the request.
   * Called on every request: the 2026-07-28 revision has no session to remember an identity by.
   */
  createContext: (
    request: MCPRequestAuth,
  ) => MCPIdentity<TContext> | null | undefined | Promise<MCPIdentity<TContext> | null | undefined>;
};
