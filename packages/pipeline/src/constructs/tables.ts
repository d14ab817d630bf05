import { LedgerAttribute } from "@effectively-once/contract";
import { DynamodbTable } from "@cdktf/provider-aws/lib/dynamodb-table";
import { Construct } from "constructs";
import { tableEncryption } from "./encryption";
import type { ResolvedPipelineProps } from "./props";
import type { PipelineResourceNames } from "./resource-names";

/** Attribute names of the ledger, shared by the construct, the tools and the tests. */
const LEDGER = { partitionKey: LedgerAttribute.Key, sortKey: LedgerAttribute.Operation, ttl: LedgerAttribute.ExpiresAt } as const;
/** Attribute names Powertools uses by default (id, expiration in epoch seconds). */
const IDEMPOTENCY = { partitionKey: "id", ttl: "expiration" } as const;

/** The claim ledger (first layer) and the Powertools idempotency table (second layer). */
export class PipelineTables extends Construct {
  readonly ledger: DynamodbTable;
  readonly idempotency: DynamodbTable;

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps, names: PipelineResourceNames) {
    super(scope, id);
    const common = {
      billingMode: "PAY_PER_REQUEST",
      pointInTimeRecovery: { enabled: p.pointInTimeRecovery },
      serverSideEncryption: tableEncryption(p.encryption),
    };
    this.ledger = new DynamodbTable(this, "ledger", {
      ...common,
      name: names.ledgerTable,
      hashKey: LEDGER.partitionKey,
      rangeKey: LEDGER.sortKey,
      attribute: [
        { name: LEDGER.partitionKey, type: "S" },
        { name: LEDGER.sortKey, type: "S" },
      ],
      ttl: { attributeName: LEDGER.ttl, enabled: true },
      deletionProtectionEnabled: p.deletionProtection,
    });
    this.idempotency = new DynamodbTable(this, "idempotency", {
      ...common,
      name: names.idempotencyTable,
      hashKey: IDEMPOTENCY.partitionKey,
      attribute: [{ name: IDEMPOTENCY.partitionKey, type: "S" }],
      ttl: { attributeName: IDEMPOTENCY.ttl, enabled: true },
      // It outlives the ledger's lost keys (docs/guarantees.md): losing it is losing the second layer's memory.
      deletionProtectionEnabled: p.deletionProtection,
    });
  }
}
