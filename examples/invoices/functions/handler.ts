// The deployed function: the pipeline's handler wrapper around issuing an invoice.
import { createPipelineHandler } from "@effectively-once/pipeline/handler";
import { issueFunction } from "./issue";

export const handler = createPipelineHandler(issueFunction);
