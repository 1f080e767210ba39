/**
 * Why the application could not be loaded: import failure, a refused or ambiguous export, a timeout,
 * a missing TypeScript loader. `detail` carries the stack or the child's captured output. Always exit 2.
 */
export class LoadError extends Error {
  readonly detail: string | undefined;

  constructor(message: string, detail?: string) {
    super(message);
    this.name = "LoadError";
    this.detail = detail;
  }
}
