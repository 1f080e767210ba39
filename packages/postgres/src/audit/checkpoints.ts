import { createPrivateKey, sign, type KeyObject } from "node:crypto";
import { AUDIT_CHAIN_GENESIS, auditCheckpointPayload, type AgentAuditEvent, type AuditCheckpoint } from "@orpc-agent/core";
import { instantParam, jsonParam } from "../encoding.js";
import { runQuery, type PgQuery } from "../query.js";

export interface PgAuditCheckpointOptions {
  /** Ed25519 private key: a `KeyObject` or PEM text. Only the sink holds it; verifiers get the public key. */
  privateKey: KeyObject | string;
  /** Names the key in every checkpoint, so keys can rotate: verifiers pick the public key by id. */
  keyId: string;
  /**
   * Sign after this many more events are stored in a chain.
   * @default 1000
   */
  everyEvents?: number;
  /**
   * Also sign every `everyMs` when a chain advanced (an unref'd timer).
   * @default 5000
   */
  everyMs?: number;
  /**
   * The checkpoints table.
   * @default `<table>_checkpoints`
   */
  table?: string;
  /**
   * A checkpoint write failed; the next one covers its events.
   * @default console.error
   */
  onError?: (error: unknown) => void;
  /**
   * The checkpoint clock.
   * @default () => new Date()
   */
  now?: () => Date;
}

type Settled = { hash: string; lost: boolean };
type ChainState = {
  id: string;
  settled: Map<number, Settled>;
  /** Every event through `mark` is stored (or declared lost). */
  mark: number;
  markHash: string;
  signed: number;
  lost: { seq: number; hash: string }[];
};

export type CheckpointWriter = {
  /** Called synchronously for each chained event as the sink receives it: opens its chain with a seq-0 checkpoint. */
  received(event: AgentAuditEvent): void;
  /** The event's write settled; a failed write is declared lost in the next checkpoint. */
  settled(event: AgentAuditEvent, lost: boolean): void;
  /** Signs every chain that advanced, and waits for every checkpoint write in flight. */
  checkpointNow(): Promise<void>;
  stop(): void;
};

const KEY_ID = /^[\x21-\x7e]{1,200}$/;

/** Validates the options at construction; the key must be Ed25519 (ADR-025). */
export function createCheckpointWriter(options: PgAuditCheckpointOptions, query: PgQuery, table: string): CheckpointWriter {
  if (typeof options !== "object" || options === null) throw new TypeError("Invalid checkpoint: pass { privateKey, keyId }");
  const { keyId, everyEvents = 1000, everyMs = 5000, onError = defaultOnError, now = () => new Date() } = options;
  if (typeof keyId !== "string" || !KEY_ID.test(keyId)) throw new TypeError("Invalid checkpoint: keyId must be 1-200 printable characters");
  if (!Number.isInteger(everyEvents) || everyEvents < 1) throw new TypeError("Invalid checkpoint: everyEvents must be an integer >= 1");
  if (typeof everyMs !== "number" || !Number.isFinite(everyMs) || everyMs < 1) throw new TypeError("Invalid checkpoint: everyMs must be a finite number >= 1");
  let key: KeyObject;
  try {
    key = typeof options.privateKey === "string" ? createPrivateKey(options.privateKey) : options.privateKey;
  } catch (cause) {
    throw new TypeError("Invalid checkpoint: privateKey is not a private key", { cause });
  }
  if (key?.type !== "private" || key.asymmetricKeyType !== "ed25519") throw new TypeError("Invalid checkpoint: privateKey must be an Ed25519 private key");

  const insert = `insert into ${table} (chain_id, seq, hash, at, key_id, lost, signature) values ($1, $2::bigint, $3, $4::timestamptz, $5, $6::jsonb, $7)`;
  const chains = new Map<string, ChainState>();
  const writing = new Set<Promise<void>>();
  let timer: ReturnType<typeof setInterval> | undefined;

  const write = (state: ChainState, seq: number, hash: string, lost: { seq: number; hash: string }[]): void => {
    const unsigned = { chainId: state.id, seq, hash, at: instantParam(now()), keyId, lost };
    const done = Promise.resolve()
      .then(() => {
        const signature = sign(null, Buffer.from(auditCheckpointPayload(unsigned), "utf8"), key).toString("base64");
        const checkpoint: AuditCheckpoint = { ...unsigned, signature };
        return runQuery(query, insert, [checkpoint.chainId, checkpoint.seq, checkpoint.hash, checkpoint.at, keyId, jsonParam(lost), signature]);
      })
      .then(
        () => undefined,
        (error: unknown) => {
          // The next checkpoint must still declare these losses.
          state.lost.unshift(...lost);
          try {
            onError(error);
          } catch {
            // A throwing handler must not break the sink.
          }
        },
      );
    writing.add(done);
    void done.then(() => writing.delete(done));
  };

  const sign_ = (state: ChainState): void => {
    if (state.mark === state.signed && state.lost.length === 0) return;
    const lost = state.lost;
    state.lost = [];
    state.signed = state.mark;
    write(state, state.mark, state.markHash, lost);
  };

  return {
    received(event) {
      const chain = event.chain;
      if (chain === undefined || chains.has(chain.id)) return;
      const state: ChainState = { id: chain.id, settled: new Map(), mark: 0, markHash: AUDIT_CHAIN_GENESIS, signed: 0, lost: [] };
      chains.set(chain.id, state);
      // The opening checkpoint: a chain no signed checkpoint vouches for was not written by this sink.
      write(state, 0, AUDIT_CHAIN_GENESIS, []);
      if (timer === undefined) {
        timer = setInterval(() => {
          for (const each of chains.values()) sign_(each);
        }, everyMs);
        (timer as { unref?: () => void }).unref?.();
      }
    },
    settled(event, lost) {
      const chain = event.chain;
      const state = chain === undefined ? undefined : chains.get(chain.id);
      if (chain === undefined || state === undefined) return;
      state.settled.set(chain.seq, { hash: chain.hash, lost });
      // Only a contiguous prefix is signed, so a checkpoint never covers a row still being written.
      for (let next = state.settled.get(state.mark + 1); next !== undefined; next = state.settled.get(state.mark + 1)) {
        state.settled.delete(state.mark + 1);
        state.mark++;
        state.markHash = next.hash;
        if (next.lost) state.lost.push({ seq: state.mark, hash: next.hash });
      }
      if (state.mark - state.signed >= everyEvents) sign_(state);
    },
    async checkpointNow() {
      for (const state of chains.values()) sign_(state);
      while (writing.size > 0) await Promise.allSettled([...writing]);
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}

const defaultOnError = (error: unknown): void => {
  console.error("[orpc-agent] audit checkpoint write failed:", error);
};
