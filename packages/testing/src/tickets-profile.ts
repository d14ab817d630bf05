import type { MessageProfile } from "@effectively-once/pipeline";
import type { StreamContract } from "@effectively-once/local-cloud/stack";

/**
 * A domain of the tests' own (support tickets keyed by queue + number), so the tools are tested on a stack shape
 * no example has: a profile and the contract its stack would publish.
 */
export const TICKETS_PROFILE: MessageProfile = {
  unique: (index, runId, random) => ({ queue: `q-${runId}`, number: index + 1, priority: 1 + Math.floor(random() * 5), title: `ticket ${index}` }),
  conflict: (body) => ({ ...body, priority: Number(body.priority) + 1 }),
  rejected: (index, runId) => ({ queue: `q-${runId}`, number: 1_000_000 + index, priority: 0, title: "refused" }),
};

export const TICKETS_CONTRACT: StreamContract = {
  keyExpression: "[queue, number]",
  keyFields: ["queue", "number"],
  payloadFields: ["priority", "title"],
  operation: "open",
};
