/**
 * The mutant of `pipeline-ops`' witness counting that a rollback exposes (item 5 of the shared-account review): ops
 * counts the second-layer records of the first deploy's ids whatever function is deployed now, as it did when it read
 * them from the stack's outputs. After a rollback to the previous release, whose function never reads those records,
 * `dlq redrive` then moves a copy on their word that the function applies again once the ledger lost the key.
 * `npm run mutate` runs it in the `ledger-loss` focused space (fuzz/focus.ts), which draws rollbacks before the redrive.
 */
import type { Mutant } from "./mutant";

export function rollbackMutants(): Mutant[] {
  return [
    {
      id: "Ops/Witnesses:first-deploy-ids",
      description: "ops counts the records of the first deploy's ids as a key's memory, whatever function is deployed now",
      apply: (d) => d,
      construct: { opsCountsFirstDeployIds: true },
    },
  ];
}
