// The adversarial suite captures the startup warnings its runtimes provoke with core's own test helper.
export { captureStartupWarnings } from "../../../packages/core/test/support/startup-warnings.js";
