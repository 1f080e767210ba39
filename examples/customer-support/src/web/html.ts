// Tiny HTML helpers: the approvals page renders on the server with no build step and no client framework.
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #1d2330; }
  /* Title and sign-in links never touch: they keep a gap, and the links wrap below the title when narrow. */
  header { display: flex; flex-wrap: wrap; gap: .25rem 2rem; justify-content: space-between; align-items: baseline; border-bottom: 1px solid #d9dde6; }
  nav { display: flex; flex-wrap: wrap; gap: .25rem .8rem; align-items: baseline; }
  .card { border: 1px solid #d9dde6; border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
  .muted { color: #5b6475; } .notice { padding: .6rem 1rem; border-radius: 6px; margin: 1rem 0; }
  .refused { background: #fdecea; color: #8a1c12; } .done { background: #e7f6ec; color: #135c2b; }
  pre { background: #f5f6f9; padding: .6rem; border-radius: 6px; overflow-x: auto; }
  button { font: inherit; padding: .35rem .9rem; margin-right: .5rem; cursor: pointer; }
  nav a { white-space: nowrap; } nav a.current { font-weight: 600; }
  .marker { color: #fff; background: #b3261e; border-radius: 4px; padding: 0 .4rem; font-size: .8rem; text-transform: uppercase; }
  .marker.high-risk { background: #a85a00; }
  dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; background: #f5f6f9; padding: .6rem; border-radius: 6px; }
  dl.fields div { display: contents; } dl.fields dt { color: #5b6475; } dl.fields dd { margin: 0; }
  textarea { display: block; width: 100%; box-sizing: border-box; font: inherit; margin: .4rem 0; }
</style></head><body>${body}</body></html>`;
}
