/** A stack the deployer-policy generator cannot cover, named with what to do. */
export class DeployerPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeployerPolicyError";
  }
}
