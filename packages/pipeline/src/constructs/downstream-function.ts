import { CloudwatchLogGroup } from "@cdktf/provider-aws/lib/cloudwatch-log-group";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicy } from "@cdktf/provider-aws/lib/iam-role-policy";
import { LambdaFunction } from "@cdktf/provider-aws/lib/lambda-function";
import { AssetType, TerraformAsset } from "cdktf";
import { Construct } from "constructs";
import { ContractEnv, contractEnvironment } from "../contract/function-env";
import { bundleHandler } from "./bundle";
import { XRAY_ACTIONS, assumeRolePolicy, policyJson, trustedService, type StackArnScope } from "./iam";
import { downstreamFunctionName, functionSecondLayerEnvironment, type PolicyStatement, type ResolvedPipelineProps } from "./props";
import type { PipelineTables } from "./tables";

/** The downstream function: esbuild bundle, arm64 on nodejs22.x, JSON logs to its own log group, least privilege. */
export class DownstreamFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: IamRole;
  readonly logGroup: CloudwatchLogGroup;

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps, tables: PipelineTables, arns: StackArnScope) {
    super(scope, id);
    const fn = p.function;
    const functionName = downstreamFunctionName(p.namePrefix, fn.name);
    this.logGroup = new CloudwatchLogGroup(this, "logs", {
      name: `/aws/lambda/${functionName}`,
      retentionInDays: p.logRetentionDays,
    });
    this.role = new IamRole(this, "role", {
      name: `${functionName}-role`,
      assumeRolePolicy: assumeRolePolicy(trustedService.lambda(arns)),
    });
    const statements: PolicyStatement[] = [
      { Sid: "WriteOwnLogs", Effect: "Allow", Action: ["logs:CreateLogStream", "logs:PutLogEvents"], Resource: [`${this.logGroup.arn}:*`] },
      {
        Sid: "IdempotencyRecords",
        Effect: "Allow",
        Action: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
        Resource: [tables.idempotency.arn],
      },
      ...fn.policyStatements,
      ...(p.tracing ? [{ Sid: "Tracing", Effect: "Allow" as const, Action: XRAY_ACTIONS.slice(0, 2), Resource: ["*"] }] : []),
    ];
    new IamRolePolicy(this, "policy", { name: "least-privilege", role: this.role.id, policy: policyJson(statements) });

    const asset = new TerraformAsset(this, "bundle", {
      path: bundleHandler(fn.entry, `.build/functions/${functionName}`),
      type: AssetType.ARCHIVE,
    });
    this.function = new LambdaFunction(this, "function", {
      functionName,
      role: this.role.arn,
      handler: "index.handler",
      runtime: "nodejs22.x",
      architectures: ["arm64"],
      filename: asset.path,
      // The zip gets fresh timestamps on every synth; the asset hash does not, so plans stay quiet.
      sourceCodeHash: asset.assetHash,
      timeout: fn.timeoutSeconds,
      memorySize: fn.memoryMb,
      reservedConcurrentExecutions: fn.reservedConcurrency,
      environment: {
        variables: {
          ...fn.environment,
          [ContractEnv.IdempotencyTableName]: tables.idempotency.name,
          [ContractEnv.ExpiresAfterSeconds]: String(p.retentionSeconds),
          ...contractEnvironment(p),
          // How the second layer's record ids are formed: never from the function's name (second-layer-ids.ts).
          ...functionSecondLayerEnvironment(p),
          [ContractEnv.ServiceName]: p.namePrefix,
          [ContractEnv.LogLevel]: fn.logLevel,
        },
      },
      loggingConfig: { logFormat: "JSON", logGroup: this.logGroup.name, applicationLogLevel: fn.logLevel, systemLogLevel: "WARN" },
      tracingConfig: p.tracing ? { mode: "Active" } : undefined,
      dependsOn: [this.logGroup],
    });
  }
}
