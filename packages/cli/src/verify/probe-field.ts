/**
 * The body field by which a probe instructs the probe stack's no-op function, and its values. Its own file: the
 * function's file builds a handler at import, which only the deployed function may do.
 */
export const PROBE_FIELD = "verifyProbe";
/** Fail transiently on the message's first receive (the failed-record probe). */
export const FAIL_ONCE = "fail-once";
