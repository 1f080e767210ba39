// Summarises what bench/profile.ts produced: `tsx bench/profile-summary.ts <file.cpuprofile|file.heapsnapshot> [top]`.
// CPU: self time per function, with its share of the profile. Heap: retained-by-type counts (self size per
// constructor), which for a snapshot of N parked calls divided by N is what each in-flight call holds.
import { readFileSync } from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile|file.heapsnapshot> [top]");
const top = Number(topArg ?? 30);
const data = JSON.parse(readFileSync(file, "utf8"));

type CpuNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number };

if (file.endsWith(".cpuprofile")) {
  const nodes = data.nodes as CpuNode[];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = data.samples as number[];
  for (const id of samples) {
    const f = byId.get(id)!.callFrame;
    const where = f.url ? `${f.url.replace(/^.*\/(node_modules|packages)\//, "$1/")}:${f.lineNumber + 1}` : "";
    const key = `${f.functionName || "(anonymous)"} ${where}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const total = samples.length;
  for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((n / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
} else {
  const { snapshot, nodes, strings } = data as { snapshot: { meta: { node_fields: string[]; node_types: string[][] } }; nodes: number[]; strings: string[] };
  const fields = snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const types = snapshot.meta.node_types[0]!;
  const agg = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]!]!;
    const name = type === "object" || type === "closure" || type === "native" ? strings[nodes[i + nameAt]!]! : `(${type})`;
    const key = `${type === "closure" ? "closure " : ""}${name}`;
    const entry = agg.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += nodes[i + sizeAt]!;
    agg.set(key, entry);
  }
  for (const [key, { count, size }] of [...agg].sort((a, b) => b[1].size - a[1].size).slice(0, top)) {
    console.log(`${(size / 1024).toFixed(0).padStart(8)} KB  ${String(count).padStart(8)}  ${key.slice(0, 100)}`);
  }
}
