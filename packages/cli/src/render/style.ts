import type { RiskLevel, SideEffect } from "@orpc-agent/core";
import type { ChangeKind } from "../drift/types.js";

/** The styles renderers use; colour never changes the text (docs/architecture/spec/cli.md#cli-8-4). */
export type Style = "bold" | "dim" | "red" | "green" | "yellow" | "cyan" | "magenta" | "gray";

/** A piece of text and how to paint it. */
export type Cell = { text: string; style?: Style };

const ANSI: Record<Style, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  gray: [90, 39],
};

export function paint(text: string, style: Style | undefined, color: boolean): string {
  if (!color || style === undefined || text === "") return text;
  const [open, close] = ANSI[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

export const RISK_STYLE: Record<RiskLevel, Style> = { low: "green", medium: "yellow", high: "red", critical: "magenta" };

export const SIDE_EFFECT_STYLE: Record<SideEffect, Style> = {
  none: "gray",
  read: "cyan",
  write: "yellow",
  destructive: "red",
  external: "magenta",
};

export const KIND_STYLE: Record<ChangeKind, Style> = { widening: "red", narrowing: "cyan", neutral: "dim" };

/** The placeholder for an empty cell. */
export const EMPTY = "—";
