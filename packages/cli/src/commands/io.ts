/** The process surface a command uses; injected so commands stay testable. */
export type CliIo = {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
};

/** Prints `orpc-agent: <message>` (and the detail) on stderr; returns exit code 2, "could not run". */
export function couldNotRun(io: CliIo, message: string, detail?: string): 2 {
  io.stderr.write(`orpc-agent: ${message}\n`);
  if (detail !== undefined && detail.trim() !== "") io.stderr.write(`${detail.trimEnd()}\n`);
  return 2;
}

export function notice(io: CliIo, message: string): void {
  io.stderr.write(`orpc-agent: ${message}\n`);
}
