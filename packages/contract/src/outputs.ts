/**
 * The stack outputs' names: the one place they are spelled. `IdempotentPipeline` writes every name but
 * `EffectsTable` (`EffectJournalTable` writes that one), each after the construct's `outputPrefix`; `ops`, the local
 * cloud, the harness and the tools read them under these names, as `cdktf deploy --outputs-file` and
 * `terraform output` write them.
 */
export const OutputName = {
  Region: "region",
  QueueUrl: "queue_url",
  QueueArn: "queue_arn",
  DlqUrl: "dlq_url",
  DlqArn: "dlq_arn",
  LedgerTable: "ledger_table_name",
  IdempotencyTable: "idempotency_table_name",
  StateMachineArn: "state_machine_arn",
  FunctionName: "function_name",
  PipeArn: "pipe_arn",
  /** The SNS topic the alarms notify ("" when the construct's `alarmActions` names the actions instead). */
  AlarmTopicArn: "alarm_topic_arn",
  Operation: "operation",
  /** The contract, for tools that read a message's key and payload as the state machine does (JSON texts). */
  BusinessKeyExpression: "business_key_expression",
  BusinessKeyFields: "business_key_fields",
  PayloadFields: "payload_fields",
  /** What `ops dlq redrive` needs to tell whether the ledger still remembers a message's key. */
  RetentionSeconds: "retention_seconds",
  MessageRetentionSeconds: "message_retention_seconds",
  DeadLetterRetentionSeconds: "dead_letter_retention_seconds",
  /** The pipe's filter patterns, as a JSON list ("[]": none): `ops dlq redrive` refuses a copy the pipe would drop. */
  FilterPatterns: "filter_patterns",
  /** The state machine role's unique id: the SenderId prefix of the quarantine's own DLQ copies. */
  WorkflowRoleId: "workflow_role_id",
  /**
   * How the second layer's record ids are formed (packages/contract/src/second-layer-ids.ts), so `ops` finds a key's record
   * without the function's name; and the earlier releases' prefix while the upgrade's transition lasts ("": none).
   */
  IdempotencyKeyPrefix: "idempotency_key_prefix",
  IdempotencyHashFunction: "idempotency_hash_function",
  IdempotencyLegacyKeyPrefix: "idempotency_legacy_key_prefix",
  /** The effect journal's table name (`EffectJournalTable`). */
  EffectsTable: "effects_table_name",
} as const;
export type OutputName = (typeof OutputName)[keyof typeof OutputName];

/** The outputs `IdempotentPipeline` writes: every name but the effect journal's. */
export type PipelineOutputName = Exclude<OutputName, typeof OutputName.EffectsTable>;
