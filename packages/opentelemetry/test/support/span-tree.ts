import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";

export type SpanTree = { name: string; children: SpanTree[] };

const startNs = (s: ReadableSpan) => s.startTime[0] * 1e9 + s.startTime[1];

/** The finished spans as a tree by parent span id, children in start order; roots are spans whose parent is not among them. */
export function spanTree(spans: readonly ReadableSpan[]): SpanTree[] {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const ordered = spans.map((s, i) => ({ s, i })).sort((a, b) => startNs(a.s) - startNs(b.s) || a.i - b.i).map(({ s }) => s);
  const build = (parentId: string | undefined): SpanTree[] =>
    ordered
      .filter((s) => {
        const p = s.parentSpanContext?.spanId;
        return parentId === undefined ? p === undefined || !ids.has(p) : p === parentId;
      })
      .map((s) => ({ name: s.name, children: build(s.spanContext().spanId) }));
  return build(undefined);
}

export function spanNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const matches = spans.filter((s) => s.name === name);
  if (matches.length !== 1) throw new Error(`expected exactly one span "${name}", found ${matches.length}`);
  return matches[0]!;
}

/** Everything a span carries that an exporter would ship, as one string (resource aside: it is the app's). */
export function exportedText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((s) => ({
      name: s.name,
      attributes: s.attributes,
      events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })),
      status: s.status,
      links: s.links,
    })),
  );
}
