// The deployed function: the pipeline's handler wrapper around the posting.
import { createPipelineHandler } from "@effectively-once/pipeline/handler";
import { postFunction } from "./post";

export const handler = createPipelineHandler(postFunction);
