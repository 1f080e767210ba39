// Where in the pipeline a governed failure happened; every error code has a default stage (codes.ts).
export type FailureStage =
  | "discovery"
  | "input-validation"
  | "authentication"
  | "authorization"
  | "policy"
  | "approval"
  | "execution"
  | "output-validation"
  | "timeout"
  | "cancellation"
  | "adapter";
