// The deployed function: the pipeline's handler wrapper around the charge. The wrapper reads the environment at
// cold start (a missing variable fails here, naming it), validates each event, applies Powertools idempotency and
// writes one log line per invocation.
import { createPipelineHandler } from "@effectively-once/pipeline/handler";
import { chargeFunction } from "./charge";

export const handler = createPipelineHandler(chargeFunction);
