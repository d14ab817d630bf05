/** The props of the downstream function, the team's side effect, and of the IAM statements it is given. */
import type { LambdaRuntime } from "./lambda-runtime";

/** The downstream Lambda function (the side effect), bundled with esbuild at synth time. */
export interface DownstreamFunctionProps {
  /** Short name, appended to the name prefix. @default "worker" */
  readonly name?: string;
  /** Path of the TypeScript handler file, exporting `handler`. */
  readonly entry: string;
  /** Lambda timeout; below the execution timeout, which the construct checks. @default 10 */
  readonly timeoutSeconds?: number;
  /** Lambda memory (arm64). @default 256 */
  readonly memoryMb?: number;
  /**
   * The Node.js runtime. `nodejs24.x` needs hashicorp/aws 6.19.0 or later: the `/cdktn` entry (@cdktn/provider-aws
   * 25.x) has it, the cdktf entry (@cdktf/provider-aws 20.x, hashicorp/aws 5.100.0) refuses it at synth. nodejs22.x
   * leaves Lambda's standard support on 2027-04-30 (docs/construct.md, "Runtime").
   * @default "nodejs22.x"
   */
  readonly runtime?: LambdaRuntime;
  /** Extra environment variables (the construct sets the idempotency ones itself). @default {} */
  readonly environment?: Readonly<Record<string, string>>;
  /** Extra IAM statements for what the function reaches besides its idempotency table. @default [] */
  readonly policyStatements?: readonly PolicyStatement[];
  /**
   * More function error names that are permanent: the message is quarantined as `rejected` instead of retried.
   * `PipelineRejected`, the name the handler wrapper reports its `PermanentError` (and every subclass) under, is
   * always included. Plain names such as `ValidationError` are not: libraries throw those for errors of their own.
   * @default []
   */
  readonly permanentErrors?: readonly string[];
  /**
   * More function error names that mean "this key was already applied with another payload": the message is
   * quarantined as `payload-mismatch` (so a redrive needs `--force`). Powertools' `IdempotencyValidationError` and
   * `PipelineConflict`, the name the wrapper reports its `ConflictError` (and every subclass) under, are always
   * included.
   * @default []
   */
  readonly conflictErrors?: readonly string[];
  /** Log level of the function's Powertools logger. @default "INFO" */
  readonly logLevel?: "DEBUG" | "INFO" | "WARN" | "ERROR";
  /**
   * Reserved concurrency, to protect the downstream system. 0 is refused: it throttles every invocation, so every
   * message would end in the DLQ; stop the pipe to pause the pipeline. The account must keep 100 unreserved: with
   * the default account quota (1,000) at most 900 can be reserved, which the preflight checks against the real one.
   * @default none (account pool)
   */
  readonly reservedConcurrency?: number;
  /**
   * The upgrade from release 0.2 (docs/upgrading.md): the second layer's records used to be named after the function
   * (`<function name>#<md5>`), now after the contract (`effectively-once.v1#<sha256>`, packages/contract/src/second-layer-ids.ts).
   * The function keeps honouring the records of this earlier name, and `ops` reads them, so a key applied before the
   * upgrade is still recognised when the ledger lost it. Give the name the function had under 0.2 if it differs;
   * set `false` once `retentionSeconds` have passed since the upgrade was deployed, or on a stack first deployed with
   * this release (each invocation then saves one read).
   * @default the function's name, `<namePrefix>-<name>` (what 0.2 named the records after)
   */
  readonly legacyIdempotencyKeyPrefix?: string | false;
}

/** One IAM statement; `Resource` entries must be ARNs of this stack (checked by the IAM tests). */
export interface PolicyStatement {
  /** Statement id. @default none */
  readonly Sid?: string;
  /** Allow or deny. */
  readonly Effect: "Allow" | "Deny";
  /** IAM actions, e.g. `dynamodb:PutItem`. */
  readonly Action: readonly string[];
  /** ARNs (or Terraform references to them) the actions apply to. */
  readonly Resource: readonly string[];
}
