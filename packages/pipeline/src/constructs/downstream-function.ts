import { CloudwatchLogGroup } from "@cdktf/provider-aws/lib/cloudwatch-log-group";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicy } from "@cdktf/provider-aws/lib/iam-role-policy";
import { LambdaFunction } from "@cdktf/provider-aws/lib/lambda-function";
import { AssetType, Op, TerraformAsset } from "cdktf";
import { Construct } from "constructs";
import { CHINA_LAMBDA_XRAY_SOURCE, cite } from "./aws-limits";
import { bundleArchive } from "./bundle";
import { functionEncryption, keyGrants, logGroupEncryption } from "./encryption";
import { terraformFunctionVariables } from "./function-variables";
import { assumeRolePolicy, functionPolicyStatements, policyJson, trustedService } from "./iam";
import { esbuildTarget } from "./lambda-runtime";
import type { PolicyStatement } from "./function-props";
import type { ResolvedPipelineProps } from "./props";
import { ROLE_POLICY_NAME, type PipelineResourceNames } from "./resource-names";
import type { StackArnScope } from "./stack-data";
import type { PipelineTables } from "./tables";

/** The downstream function: esbuild bundle, arm64 on the chosen Node.js runtime, JSON logs to its own log group, least privilege. */
export class DownstreamFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: IamRole;
  readonly logGroup: CloudwatchLogGroup;

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps, parts: { names: PipelineResourceNames; tables: PipelineTables; arns: StackArnScope }) {
    super(scope, id);
    const { names, tables, arns } = parts;
    const fn = p.function;
    const functionName = names.functionName;
    this.logGroup = new CloudwatchLogGroup(this, "logs", {
      name: names.functionLogGroup,
      retentionInDays: p.logRetentionDays,
      ...logGroupEncryption(p.encryption),
    });
    this.role = new IamRole(this, "role", {
      name: names.functionRole,
      assumeRolePolicy: assumeRolePolicy(trustedService.lambda(arns)),
      permissionsBoundary: p.permissionsBoundary,
    });
    const statements: PolicyStatement[] = [
      ...functionPolicyStatements(p, { logGroup: this.logGroup.arn, idempotencyTable: tables.idempotency.arn }),
      ...keyGrants.function(p.encryption, arns),
    ];
    new IamRolePolicy(this, "policy", { name: ROLE_POLICY_NAME, role: this.role.id, policy: policyJson(statements) });

    const asset = new TerraformAsset(this, "bundle", {
      // A zip of our own, the same bytes for the same code: cdktf's ARCHIVE spawns a process per synth and stamps
      // the entries with the time.
      path: bundleArchive(fn.entry, `.build/functions/${functionName}.zip`, esbuildTarget(fn.runtime)),
      type: AssetType.FILE,
    });
    this.function = new LambdaFunction(this, "function", {
      functionName,
      role: this.role.arn,
      handler: "index.handler",
      runtime: fn.runtime,
      architectures: ["arm64"],
      filename: asset.path,
      // The archive's hash: it changes with the code only, so plans stay quiet.
      sourceCodeHash: asset.assetHash,
      timeout: fn.timeoutSeconds,
      memorySize: fn.memoryMb,
      reservedConcurrentExecutions: fn.reservedConcurrency,
      environment: {
        variables: terraformFunctionVariables(p, tables.idempotency.name),
      },
      ...functionEncryption(p.encryption),
      loggingConfig: { logFormat: "JSON", logGroup: this.logGroup.name, applicationLogLevel: fn.logLevel, systemLogLevel: "WARN" },
      tracingConfig: p.tracing ? { mode: "Active" } : undefined,
      dependsOn: [this.logGroup],
      lifecycle: p.tracing
        ? {
            precondition: [
              {
                // A China region the synth could not see (AWS_REGION at plan time) is checked here; a literal one at synth.
                condition: Op.neq(arns.partition, "aws-cn"),
                errorMessage: `X-Ray tracing of Lambda functions is not available in the China Regions (${cite(CHINA_LAMBDA_XRAY_SOURCE)}): set tracing: false.`,
              },
            ],
          }
        : undefined,
    });
  }
}
