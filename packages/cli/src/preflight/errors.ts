/**
 * The preflight's exit codes: a check that failed is not the same as a preflight that could not ask. Each of the
 * others comes with a message that says what to fix; docs/deploy.md lists them.
 */
export const ExitCode = {
  Ok: 0,
  /** A check failed: the deploy would fail or do damage. */
  CheckFailed: 1,
  /** Bad arguments or input files. */
  Usage: 2,
  /** No credentials, or expired or invalid ones. */
  NoCredentials: 3,
  /** The region is malformed, not where the pipeline can go, or not the stack's. */
  BadRegion: 4,
  /** AWS could not be reached (DNS, connection, timeout, proxy). */
  Network: 5,
  /** The credentials work but may not make one of the preflight's own read-only calls. */
  ReadDenied: 6,
  /** Anything else (a bug, or an answer the preflight does not understand). */
  Unexpected: 7,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that ends the preflight with its own exit code and message. */
export class PreflightStop extends Error {
  constructor(
    readonly code: ExitCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "PreflightStop";
  }
}

const NETWORK_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);
const CREDENTIAL_ERRORS = new Set(["CredentialsProviderError", "ExpiredToken", "ExpiredTokenException", "InvalidClientTokenId", "UnrecognizedClientException", "SignatureDoesNotMatch"]);
const DENIED_ERRORS = new Set(["AccessDenied", "AccessDeniedException", "UnauthorizedOperation"]);

/** The network error code of an error or of one it wraps (the SDK wraps a socket error: "AWS SDK error wrapper for …"). */
export function networkCode(error: unknown): string | undefined {
  for (let e = error as { code?: string; message?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth += 1) {
    if (e.code && NETWORK_CODES.has(e.code)) return e.code;
    const named = /\b(E[A-Z]{4,})\b/.exec(e.message ?? "")?.[1];
    if (named && NETWORK_CODES.has(named)) return named;
  }
  return undefined;
}

/** What went wrong in a call the preflight made, as a stop with its exit code and fix; undefined: not one of these. */
export function classifyCallError(error: unknown, during: string): PreflightStop | undefined {
  const e = error as { name?: string; code?: string; message?: string; hostname?: string };
  const text = `${e.name ?? "Error"}: ${e.message ?? String(error)}`;
  const network = networkCode(error);
  if (e.name && CREDENTIAL_ERRORS.has(e.name)) {
    return new PreflightStop(ExitCode.NoCredentials, `preflight: no usable AWS credentials while ${during} (${text}). Fix: set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, or run \`aws sso login\` again if the session expired.`, { cause: error });
  }
  if (network || e.name === "TimeoutError") {
    return new PreflightStop(ExitCode.Network, `preflight: AWS could not be reached while ${during} (${network ?? e.name}${e.hostname ? ` ${e.hostname}` : ""}). Fix: check the network, DNS and any HTTPS_PROXY, then run it again; nothing was checked.`, { cause: error });
  }
  if (e.name && DENIED_ERRORS.has(e.name)) {
    return new PreflightStop(ExitCode.ReadDenied, `preflight: the credentials may not make a read-only call while ${during} (${text}). Fix: grant the caller the calls \`npx effectively-once preflight --dry-run\` lists.`, { cause: error });
  }
  return undefined;
}
