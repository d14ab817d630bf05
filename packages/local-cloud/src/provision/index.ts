/** Provisioning of a synthesized CDKTF stack into the local emulators. */
export { loadStackFile } from "./stack-file";
export { provisionStack } from "./provision";
export type { ProvisionedStack } from "./provision";
export { ProvisionError } from "./errors";
export { literalOutputs } from "./literal-outputs";
export { localRoleUniqueId, roleNameOfArn } from "./attributes";
