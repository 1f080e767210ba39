import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Actor } from "@orpc-agent/core";
import type { MCPIdentity, MCPServerOptions } from "./options.js";
import { isIdentity, withActingClient } from "../catalog/identity-checks.js";

/** What a request handler's `extra` tells about the session (docs/architecture/spec/adapters.md#adapters-3-3). */
export type SessionFacts = { sessionId?: string; authInfo?: AuthInfo };

export type SessionIdentities<TContext> = {
  /**
   * The identity for this request, or a JSON-RPC refusal (`McpError`, `InvalidRequest`). A session already
   * judged answers synchronously: every request pays this, and most arrive on a known session.
   */
  resolve(facts: SessionFacts): MCPIdentity<TContext> | Promise<MCPIdentity<TContext>>;
  /** Forgets every session: the transport closed. */
  evictAll(): void;
};

// One Server serves one transport at a time, so sessions without an id share one connection key.
const CONNECTION_KEY = Symbol("connection");
const NO_CREDENTIAL = "no-credential";
type Entry<TContext> = {
  fingerprint: string;
  identity: Promise<MCPIdentity<TContext> | undefined>;
  /** Set once `createContext` answered with a verified identity. */
  verified?: MCPIdentity<TContext>;
};

/**
 * The session identity cache of docs/architecture/spec/adapters.md#adapters-3-3: expiry is enforced on every request, identity follows the
 * credential (a SHA-256 fingerprint of the token, never the token itself), and `createContext` runs once per
 * session and credential. No anonymous default: a refusal evicts, so the next request asks `createContext` again.
 */
export function createSessionIdentities<TContext>(createContext: MCPServerOptions<TContext>["createContext"]): SessionIdentities<TContext> {
  const entries = new Map<string | symbol, Entry<TContext>>();

  function lookup(key: string | symbol, fingerprint: string, facts: SessionFacts): MCPIdentity<TContext> | Promise<MCPIdentity<TContext>> {
    let entry = entries.get(key);
    if (entry !== undefined && entry.fingerprint !== fingerprint) {
      entries.delete(key);
      entry = undefined;
    }
    if (entry?.verified !== undefined) return entry.verified;
    if (entry === undefined) {
      // Only the session facts reach createContext, never the rest of the SDK's request `extra`.
      const session = { sessionId: facts.sessionId, authInfo: facts.authInfo };
      const fresh: Entry<TContext> = { fingerprint, identity: judgeSession(createContext, session) };
      void fresh.identity.then((identity) => {
        if (identity !== undefined) fresh.verified = identity;
      });
      entries.set(key, (entry = fresh));
    }
    const pending = entry;
    return pending.identity.then((identity) => {
      if (identity !== undefined) return identity;
      if (entries.get(key) === pending) entries.delete(key);
      throw new McpError(ErrorCode.InvalidRequest, "Unauthorized: no verified identity for this session");
    });
  }

  return {
    evictAll: () => entries.clear(),
    resolve(facts) {
      const key = facts.sessionId ?? CONNECTION_KEY;
      if (isExpired(facts.authInfo)) {
        entries.delete(key);
        throw new McpError(ErrorCode.InvalidRequest, "Unauthorized: access token expired");
      }
      const fingerprint = fingerprintOf(facts.authInfo);
      if (typeof fingerprint === "string") return lookup(key, fingerprint, facts);
      return fingerprint.then((digest) => lookup(key, digest, facts));
    },
  };
}

/** `expiresAt` is in epoch seconds; without it there is nothing to enforce here (`createContext` judges). */
export function isExpired(authInfo: AuthInfo | undefined): boolean {
  const expiresAt = authInfo?.expiresAt;
  return typeof expiresAt === "number" && expiresAt * 1000 <= Date.now();
}

/** Runs `createContext` once; a throw or a malformed answer is a refusal whose text never reaches the client. */
export async function judgeSession<TContext>(
  createContext: MCPServerOptions<TContext>["createContext"],
  session: SessionFacts,
): Promise<MCPIdentity<TContext> | undefined> {
  try {
    const identity = await createContext(session);
    return isIdentity(identity) ? withActingClient(identity, session.authInfo) : undefined;
  } catch {
    return undefined;
  }
}

// Hashed synchronously with node:crypto where the platform has it (looked up, not imported, so the adapter still
// loads elsewhere); Web Crypto is the asynchronous fallback.
type OneShotHash = (algorithm: "sha256", data: string, encoding: "hex") => string;
const nodeHash = (globalThis as { process?: { getBuiltinModule?: (id: string) => { hash?: OneShotHash } | undefined } }).process?.getBuiltinModule?.(
  "node:crypto",
)?.hash;

/**
 * The credential's fingerprint; `hash` is a parameter so tests can take the Web Crypto path on Node. No credential
 * at all (stdio, `allowUnauthenticated`) is one fingerprint; an AuthInfo without its token is refused, never
 * folded into that constant: otherwise two callers with different credentials would share one cached identity.
 */
export function fingerprintOf(authInfo: AuthInfo | undefined, hash: OneShotHash | null = nodeHash ?? null): string | Promise<string> {
  if (authInfo === undefined) return NO_CREDENTIAL;
  const token: unknown = authInfo.token;
  if (typeof token !== "string" || token === "") {
    throw new McpError(ErrorCode.InvalidRequest, "Unauthorized: the session's AuthInfo carries no token");
  }
  if (hash !== null) return hash("sha256", token, "hex");
  return crypto.subtle
    .digest("SHA-256", new TextEncoder().encode(token))
    .then((digest) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join(""));
}
