/**
 * The published packages, short name → folder, in the order their prepack builds them (each builds against the ones
 * before it): one list for `npm run packages:pack` and `npm run consumer-check`.
 */
export const PUBLISHED = {
  contract: "packages/contract",
  statemachines: "statemachines",
  functions: "functions",
  pipeline: "packages/pipeline",
  "local-cloud": "packages/local-cloud",
  ops: "packages/ops",
  cli: "packages/cli",
} as const;
export type PublishedPackage = keyof typeof PUBLISHED;
