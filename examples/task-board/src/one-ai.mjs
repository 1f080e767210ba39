// One `ai` per process: the example's own (6). The workspace's @orpc-agent/ai-sdk sources would otherwise resolve
// their folder's ai 5 devDependency and stream ai 5's part states; an app installing the package from npm gets its
// own `ai` through the peer dependency and needs none of this. Loaded with `node --import` before tsx.
import { register } from "node:module";

const ai = import.meta.resolve("ai");
const hooks = `export async function resolve(specifier, context, next) {
  return specifier === "ai" ? { url: ${JSON.stringify(ai)}, shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
