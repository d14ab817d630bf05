// The probe stack's function: the pipeline's handler wrapper around a side effect that does nothing, so probes never
// reach a team's downstream. A body whose `verifyProbe` field is "fail-once" fails transiently on its first receive:
// the failed-record probe watches when the pipe hands it back.
import { createPipelineHandler } from "@effectively-once/pipeline/handler";
import { FAIL_ONCE, PROBE_FIELD } from "./probe-field";

export const handler = createPipelineHandler({
  sideEffect: async (event) => {
    if (event.payload[PROBE_FIELD] === FAIL_ONCE && (event.receiveCount ?? 1) <= 1) {
      throw new Error("verify: a transient failure on the first receive, as the failed-record probe asks");
    }
    return { verified: true };
  },
});
