import { DynamodbTable } from "@cdktf/provider-aws/lib/dynamodb-table";
import { TerraformOutput } from "cdktf";
import { Construct } from "constructs";
import { EFFECTS_TABLE_ENV } from "@effectively-once/contract";
import { OutputName } from "@effectively-once/contract";
import { cite, NAME_LIMITS } from "./aws-limits";
import { tableEncryption, type KeyStatement } from "./encryption";
import { InvalidPropError } from "./errors";
import type { PolicyStatement } from "./function-props";
import { effectJournalTableName, NameKind, NameScope } from "./resource-names";
import { claimStackNames } from "./stack-names";
import { stackData } from "./stack-data";

/** Props of {@link EffectJournalTable}. */
export interface EffectJournalTableProps {
  /** Prefix of the table's name (`<namePrefix>-effects`), usually the pipeline's. */
  readonly namePrefix: string;
  /** Prefix of the output's name, for stacks holding several pipelines (like the pipeline's). @default "" */
  readonly outputPrefix?: string;
  /** The customer managed KMS key of the table, usually the pipeline's (`encryption.kmsKeyArn`). @default the AWS managed key */
  readonly encryption?: {
    /** The key's ARN (`arn:<partition>:kms:<region>:<account>:key/<id>`). */
    readonly kmsKeyArn: string;
  };
}

/**
 * The table of an effect journal (`EffectJournal` in the function): a stand-in downstream that honours
 * idempotency keys, with one `EFFECT` item per key and one `CALL#…` item per call (layout in
 * packages/contract/src/effects.ts). Give the pipeline's function its `environment` and `policyStatements`. The table's
 * name is the stack output `effects_table_name`, where the tools look for it.
 */
export class EffectJournalTable extends Construct {
  /** The DynamoDB table (`pk`/`sk`, TTL on `expiresAt`). */
  readonly table: DynamodbTable;
  private readonly keyStatements: readonly KeyStatement[];

  constructor(scope: Construct, id: string, props: EffectJournalTableProps) {
    super(scope, id);
    const name = effectJournalTableName(props.namePrefix);
    const limit = NAME_LIMITS[NameKind.DynamoDbTable];
    if (typeof props.namePrefix !== "string" || !limit.pattern.test(name) || name.length > limit.max) {
      throw new InvalidPropError("namePrefix", props.namePrefix, `makes the ${limit.service} "${name}", which AWS refuses (${limit.min}-${limit.max} characters: ${limit.allowed})`, `use letters, digits, '_', '-' or '.' (${cite(limit.source)})`);
    }
    claimStackNames(this, { prop: "namePrefix", value: props.namePrefix }, [{ resource: "effect journal table", kind: NameKind.DynamoDbTable, name, props: ["namePrefix"], scope: NameScope.Region }]);
    this.table = new DynamodbTable(this, "effects", {
      name,
      billingMode: "PAY_PER_REQUEST",
      hashKey: "pk",
      rangeKey: "sk",
      attribute: [
        { name: "pk", type: "S" },
        { name: "sk", type: "S" },
      ],
      ttl: { attributeName: "expiresAt", enabled: true },
      serverSideEncryption: tableEncryption(props.encryption),
    });
    // The function reads and writes the table through DynamoDB: the key's use only that way (encryption.ts says why).
    const key = props.encryption?.kmsKeyArn;
    const arns = key === undefined ? undefined : stackData(this).arns;
    this.keyStatements =
      key === undefined || arns === undefined
        ? []
        : [{ Sid: "EffectJournalKey", Effect: "Allow", Action: ["kms:Decrypt", "kms:GenerateDataKey"], Resource: [key], Condition: { StringEquals: { "kms:ViaService": [`dynamodb.${arns.region}.${arns.dnsSuffix}`] } } }];
    new TerraformOutput(this, `output-${OutputName.EffectsTable}`, { value: this.table.name }).overrideLogicalId(`${props.outputPrefix ?? ""}${OutputName.EffectsTable}`);
  }

  /** The function's variable naming the table (`EFFECTS_TABLE_NAME`), read by `EffectJournal.fromEnvironment`. */
  get environment(): Record<string, string> {
    return { [EFFECTS_TABLE_ENV]: this.table.name };
  }

  /** What the journal does: write items (the effect conditionally) and read the effect back. */
  get policyStatements(): PolicyStatement[] {
    return [{ Sid: "EffectJournal", Effect: "Allow", Action: ["dynamodb:PutItem", "dynamodb:GetItem"], Resource: [this.table.arn] }, ...this.keyStatements];
  }
}
