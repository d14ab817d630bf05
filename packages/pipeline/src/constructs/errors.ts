/** Root of every configuration error the pipeline construct raises at synth time. */
export class PipelineConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PipelineConfigError";
  }
}

/**
 * A prop value AWS would reject or that breaks a guarantee. The message names the prop, the value and the fix,
 * because it is read by someone running `cdktf synth`, not by code.
 */
export class InvalidPropError extends PipelineConfigError {
  constructor(
    /** The prop at fault, as a path (e.g. `function.timeoutSeconds`). */
    readonly prop: string,
    /** The value given. */
    readonly value: unknown,
    reason: string,
    fix: string,
  ) {
    super(`IdempotentPipeline: ${prop} = ${JSON.stringify(value)} ${reason}. Fix: ${fix}`);
    this.name = "InvalidPropError";
  }
}
