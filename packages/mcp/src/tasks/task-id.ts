/** A task id: 256 random bits from the platform's CSPRNG, base64url (SEP-2663 ids are the only handle; SI-8). */
export function newTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `task_${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
}
