/**
 * The ids of the second layer's records (the function's Powertools idempotency table), the one owner of their form.
 *
 * Powertools 2.35 stores a record under `<keyPrefix>#<base64 digest of the key>`, where the key is
 * `JSON.stringify([businessKey, operation])` (its `getHashedIdempotencyKey`: the prefix, `#`, then `generateHash`
 * over the deep-sorted JMESPath result, with the config's `hashFunction`). Its defaults are the function's name
 * (`AWS_LAMBDA_FUNCTION_NAME`) and MD5: a rename of the function then forgets every key, and a producer who controls
 * the key text can make two keys one record. So the construct fixes both, in the function's environment
 * (`function-env.ts`) and in the stack's outputs (`ops` reads the same values there):
 *
 * - the prefix is a constant of the contract: it changes only when the key's identity does, never with a name;
 * - the digest is SHA-256: no two keys share an id.
 *
 * Any change of either is a second-layer key reset, which `npm run plan:review` flags (docs/upgrading.md).
 */
import { createHash } from "node:crypto";

/** How the record ids of a function are formed. */
export interface SecondLayerIds {
  /** What Powertools puts before `#` (its `keyPrefix`). */
  readonly keyPrefix: string;
  /** The digest of the key text (Powertools' `hashFunction`, a Node.js hash name). */
  readonly hashFunction: string;
}

/** The ids the construct gives every function: `effectively-once.v1#<base64 SHA-256 of ["<businessKey>","<operation>"]>`. */
export const SECOND_LAYER_IDS: SecondLayerIds = { keyPrefix: "effectively-once.v1", hashFunction: "sha256" };

/** Digests the function accepts for ids: collision-resistant ones only (MD5 and SHA-1 are not). */
export const SECOND_LAYER_HASH_FUNCTIONS: readonly string[] = ["sha256", "sha384", "sha512"];

/**
 * The ids of the earlier releases (0.2 and before): Powertools' defaults, the function's name and MD5. A function
 * honours records of this form while its legacy prefix is set (the upgrade's transition, docs/upgrading.md).
 */
export function legacySecondLayerIds(functionName: string): SecondLayerIds {
  return { keyPrefix: functionName, hashFunction: "md5" };
}

/** The id of the record of `[businessKey, operation]`, exactly as Powertools 2.35 forms it. */
export function secondLayerRecordId(ids: SecondLayerIds, businessKey: string, operation: string): string {
  // Powertools trims the prefix; deep-sorting an array of two strings leaves it as it is.
  const digest = createHash(ids.hashFunction).update(JSON.stringify([businessKey, operation])).digest("base64");
  return `${ids.keyPrefix.trim()}#${digest}`;
}
