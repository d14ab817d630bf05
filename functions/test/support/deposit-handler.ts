// The tiny domain's handler file, as a team writes one: loaded with an environment by `loadHandler` (its own cold start).
import { createPipelineHandler } from "../../src";
import { depositFunction } from "./deposit";

export const handler = createPipelineHandler(depositFunction);
