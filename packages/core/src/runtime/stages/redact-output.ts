import { CapabilityError } from "../../errors/capability-error.js";
import type { CapabilityPlan } from "../plan.js";

/** Stage 13: `redact.output` once, after the final successful attempt. A throwing hook is a concealed failure. */
export function redactOutput(plan: CapabilityPlan, output: unknown): { output: unknown } | CapabilityError {
  const redact = plan.meta.redact?.output;
  if (!redact) return { output };
  try {
    return { output: redact(output) };
  } catch (cause) {
    return new CapabilityError({ code: "EXECUTION_FAILED", cause });
  }
}
