import { DynamodbTable } from "@cdktf/provider-aws/lib/dynamodb-table";
import { Construct } from "constructs";
import type { PolicyStatement } from "../../src/constructs";

/**
 * The example's downstream system: a stand-in for a payments API that honours idempotency keys. Every call is
 * recorded (so tests can tell "called twice" from "applied twice") and each charge is written once per key.
 */
export class PaymentsDownstream extends Construct {
  readonly table: DynamodbTable;

  constructor(scope: Construct, id: string, props: { namePrefix: string }) {
    super(scope, id);
    this.table = new DynamodbTable(this, "effects", {
      name: `${props.namePrefix}-effects`,
      billingMode: "PAY_PER_REQUEST",
      hashKey: "pk",
      rangeKey: "sk",
      attribute: [
        { name: "pk", type: "S" },
        { name: "sk", type: "S" },
      ],
      ttl: { attributeName: "expiresAt", enabled: true },
      serverSideEncryption: { enabled: true },
    });
  }

  /** What the function needs: record calls and write or read back a charge. */
  get policyStatements(): PolicyStatement[] {
    return [{ Sid: "DownstreamPayments", Effect: "Allow", Action: ["dynamodb:PutItem", "dynamodb:GetItem"], Resource: [this.table.arn] }];
  }
}
