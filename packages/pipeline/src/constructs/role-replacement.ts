/**
 * How a renamed role is replaced without a moment in which the function, the workflow or the pipe runs without its
 * rights. An IAM role's `name` forces a replacement; Terraform's default destroys the old role (and its inline policy)
 * before it creates the new one, while the function, state machine and pipe still point at the old ARN. With
 * `create_before_destroy` on each role and its policy, Terraform creates the new role and policy, updates the users'
 * `role`/`role_arn` in place, and destroys the old policy and role last. The function waits for its policy (the state
 * machine and the pipe already do), so it never switches to a role that has no policy yet. docs/upgrading.md tells the
 * order.
 */
import type { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import type { IamRolePolicy } from "@cdktf/provider-aws/lib/iam-role-policy";
import { dependable, type TerraformResource } from "cdktf";

/** One role, its inline policy, and the resource that runs as it when that does not wait for the policy already. */
export interface RoleInUse {
  readonly role: IamRole;
  readonly policy: IamRolePolicy;
  readonly waitingUser?: TerraformResource;
}

export function replaceRolesBeforeDestroy(roles: readonly RoleInUse[]): void {
  for (const { role, policy, waitingUser } of roles) {
    role.lifecycle = { ...role.lifecycle, createBeforeDestroy: true };
    policy.lifecycle = { ...policy.lifecycle, createBeforeDestroy: true };
    if (waitingUser) waitingUser.dependsOn = [...(waitingUser.dependsOn ?? []), dependable(policy)];
  }
}
