// Fails while importing, as an app missing its configuration would.
export const registry = undefined;
throw new Error("throws.js: DATABASE_URL is not set");
