/** Root of errors raised while preparing or running the Terraform CLI. */
export class TerraformToolError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TerraformToolError";
  }
}

/** No usable `terraform` binary or provider mirror: the message says what to install or which variable to set. */
export class TerraformNotAvailableError extends TerraformToolError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TerraformNotAvailableError";
  }
}

/** A terraform command exited non-zero. */
export class TerraformCommandError extends TerraformToolError {
  constructor(
    readonly args: readonly string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`terraform ${args.join(" ")} exited with ${code}: ${stderr.trim().split("\n").slice(-12).join("\n")}`);
    this.name = "TerraformCommandError";
  }
}

/** Bad input to the plan review (flags, files): the message names the input and the fix. */
export class PlanInputError extends TerraformToolError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PlanInputError";
  }
}
