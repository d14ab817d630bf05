/**
 * The one reader of Terraform's JSON configuration: a synthesized stack's blocks (stack.ts) and the templates in
 * its strings (template.ts, blocks.ts). A leaf: no cdktf, no AWS SDK, so the local cloud, the plan review and the
 * rehearsal read stacks and references alike.
 */
export { mapTemplates, referencesIn } from "./blocks";
export { StackJsonError, TemplateDirectiveError, TemplateSyntaxError } from "./errors";
export { parseStack, providerConfig, readStack, resourceList, resourcesOf, type Block, type BlocksByType, type SynthesizedStack } from "./stack";
export { describeTemplate, parseTemplate, renderTemplate, type ResourceReference } from "./template";
export { arnOf, lambdaInvokeArn, queueUrlOf, type ArnEnv } from "./arns";
