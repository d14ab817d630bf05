/** An IAM policy document as the deployer policy writes it (and the tests' offline simulator reads it). */
export interface PolicyDocument {
  readonly Version: "2012-10-17";
  readonly Statement: readonly Record<string, unknown>[];
}
