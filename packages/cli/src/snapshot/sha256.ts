import { createHash } from "node:crypto";

/** `"sha256:" + hex digest` of a UTF-8 string. */
export function sha256(text: string): string {
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
}
