/**
 * The Node.js runtimes the downstream function may run on, and which hashicorp/aws provider accepts each. The
 * provider validates `runtime` against its own list, so a runtime newer than the provider fails at plan: nodejs24.x
 * needs hashicorp/aws 6.19.0 or later, which the CDK Terrain bindings (@cdktn/provider-aws 25.x, hashicorp/aws 6.66.0)
 * have and the cdktf bindings (@cdktf/provider-aws 20.x, hashicorp/aws 5.100.0) do not.
 */
export const LambdaRuntime = {
  /** Node.js 22: every supported provider version; standard support ends 2027-04-30. */
  Nodejs22: "nodejs22.x",
  /** Node.js 24: hashicorp/aws 6.19.0 or later (the `/cdktn` entry). */
  Nodejs24: "nodejs24.x",
} as const;
export type LambdaRuntime = (typeof LambdaRuntime)[keyof typeof LambdaRuntime];

/** The runtime when the props name none: supported by every provider version the package works with. */
export const DEFAULT_RUNTIME: LambdaRuntime = LambdaRuntime.Nodejs22;

/** The lowest hashicorp/aws version that accepts a runtime (none: every supported version does). */
export const RUNTIME_MIN_PROVIDER: ReadonlyMap<LambdaRuntime, string> = new Map([[LambdaRuntime.Nodejs24, "6.19.0"]]);

/** AWS's runtime page: support and deprecation dates. */
export const RUNTIMES_SOURCE = "https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html";

/** The esbuild target of a runtime (`nodejs24.x` → `node24`). */
export function esbuildTarget(runtime: LambdaRuntime): string {
  return `node${/^nodejs(\d+)\.x$/.exec(runtime)![1]}`;
}

/** Compares dotted version numbers (`6.19.0` < `6.66.0`). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}
