// The deployed function: the pipeline's handler wrapper around issuing an invoice.
import { createPipelineHandler } from "../../../functions";
import { issueFunction } from "./issue";

export const handler = createPipelineHandler(issueFunction);
