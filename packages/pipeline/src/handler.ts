/**
 * The Lambda side of the pipeline (`@effectively-once/pipeline/handler`): the handler wrapper and the effect journal,
 * from `@effectively-once/functions` (see its README). One import path for a team's function file, beside the construct.
 */
export * from "@effectively-once/functions";
