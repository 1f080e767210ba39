/** The single startup error of `createCapabilityRegistry`, carrying every problem found. */
export type RegistryValidationError = Error & { readonly problems: readonly string[] };

/** `Capability registry validation failed (N problem[s]):` and one line per problem (docs/architecture/spec/core.md#core-2-1). */
export function createRegistryValidationError(problems: readonly string[]): RegistryValidationError {
  const count = problems.length;
  const lines = problems.map((problem) => `\n  - ${problem}`).join("");
  const error = new Error(`Capability registry validation failed (${count} problem${count === 1 ? "" : "s"}):${lines}`);
  Object.defineProperty(error, "problems", { value: Object.freeze(problems.slice()), enumerable: true });
  return error as RegistryValidationError;
}
