import type { PlanAction } from "../plan-json";

/** A setting value: known, a reference to another resource (unknown until apply), or unknown. */
export type Shown = string | number | boolean | null;

export interface QueueSettings {
  readonly kind: "queue";
  readonly name: Shown;
  readonly fifo: Shown;
  /** "SQS-managed (SSE-SQS)", "KMS <key>" or "off". */
  readonly encryption: Shown;
  readonly visibilityTimeoutSeconds: Shown;
  readonly messageRetentionSeconds: Shown;
  readonly receiveWaitTimeSeconds: Shown;
  /** The DLQ: its ARN, or the reference to it when the ARN is known only after apply; null = no redrive. */
  readonly redriveTarget: Shown;
  readonly maxReceiveCount: Shown;
  /** `max_message_size` (bytes): the largest message the queue accepts, and so the largest copy a redrive can bring back. */
  readonly maxMessageBytes: Shown;
}

export interface TableSettings {
  readonly kind: "table";
  readonly name: Shown;
  readonly hashKey: Shown;
  readonly rangeKey: Shown;
  readonly billingMode: Shown;
  /** "AWS owned key (default)", "KMS: AWS managed key (aws/dynamodb)" or "KMS <key>". */
  readonly encryption: Shown;
  /** null when TTL is not enabled. */
  readonly ttlAttribute: Shown;
  readonly pointInTimeRecovery: Shown;
  readonly deletionProtection: Shown;
}

export interface LogGroupSettings {
  readonly kind: "logGroup";
  readonly name: Shown;
  /** null = never expire. */
  readonly retentionDays: Shown;
}

export interface StateMachineSettings {
  readonly kind: "stateMachine";
  readonly name: Shown;
  readonly type: Shown;
  readonly logLevel: Shown;
  readonly includeExecutionData: Shown;
  readonly logDestination: Shown;
  readonly tracing: Shown;
  /** The key derivation record in the definition (JSON text, packages/contract/src/key-derivation.ts); null when it holds none. */
  readonly keyDerivation: Shown;
}

export interface PipeSettings {
  readonly kind: "pipe";
  readonly name: Shown;
  readonly source: Shown;
  readonly target: Shown;
  readonly invocationType: Shown;
  readonly batchSize: Shown;
  readonly batchingWindowSeconds: Shown;
  readonly filters: Shown;
  readonly desiredState: Shown;
}

export interface FunctionSettings {
  readonly kind: "function";
  readonly name: Shown;
  readonly runtime: Shown;
  readonly architecture: Shown;
  readonly timeoutSeconds: Shown;
  readonly memoryMb: Shown;
  readonly reservedConcurrency: Shown;
  readonly tracing: Shown;
  /**
   * A pipeline function's second-layer ids (JSON of `SecondLayerIdsFacts`, second-layer-risks.ts): the prefix and
   * digest its records are named with, and the earlier releases' prefix it still honours; null for a function of no
   * pipeline (no `IDEMPOTENCY_TABLE_NAME`).
   */
  readonly secondLayerIds: Shown;
  /** The idempotency table it writes (its `IDEMPOTENCY_TABLE_NAME`), null for a function of no pipeline. */
  readonly idempotencyTable: Shown;
  /** Its `PIPELINE_BATCH_CONCURRENCY`: set when the workflow sends it batches (`batchInvocation`), else null. */
  readonly batchConcurrency: Shown;
}

export type ResourceSettings = QueueSettings | TableSettings | LogGroupSettings | StateMachineSettings | PipeSettings | FunctionSettings;
export type SettingsKind = ResourceSettings["kind"];

export const StatementSource = { Inline: "inline policy", Trust: "trust policy", Managed: "managed policy" } as const;
export type StatementSource = (typeof StatementSource)[keyof typeof StatementSource];

/** One IAM statement, as actions × resources (or principals for a trust policy). */
export interface IamStatement {
  /** Address of the resource holding the policy. */
  readonly policy: string;
  readonly source: StatementSource;
  /** The role it applies to: its name, or the reference when the name is only known at apply. */
  readonly role: string;
  readonly sid: string | null;
  readonly effect: string;
  readonly actions: readonly string[];
  /** true when the statement uses NotAction (everything except `actions`). */
  readonly notAction: boolean;
  readonly resources: readonly string[];
  readonly notResource: boolean;
  readonly principals: readonly string[];
  readonly hasCondition: boolean;
  /** Actions containing `*`. */
  readonly wildcardActions: readonly string[];
  /** Resource `*` (or NotResource, which is as broad). */
  readonly wildcardResource: boolean;
  /** Why AWS requires the wildcard resource here, when it does (e.g. X-Ray); null otherwise. */
  readonly requiredWildcard: string | null;
}

/** What the review knows about one resource: identity, planned action and the facts it shows. */
export interface ResourceFacts {
  readonly address: string;
  readonly type: string;
  readonly service: string;
  readonly name: string | null;
  readonly action: PlanAction;
  /** Attribute paths that force the replacement, as Terraform reported them. */
  readonly replacePaths?: readonly string[];
  readonly settings?: ResourceSettings;
  readonly statements?: readonly IamStatement[];
  /** The policy could not be read at plan time (built by an expression the review does not evaluate). */
  readonly policyUnknown?: boolean;
}

export const Severity = { High: "high", Medium: "medium" } as const;
export type Severity = (typeof Severity)[keyof typeof Severity];

export const RiskKind = {
  StatefulReplace: "stateful-replace",
  StatefulDestroy: "stateful-destroy",
  IamNewAction: "iam-new-action",
  IamNewWildcard: "iam-new-wildcard",
  IamNewPrincipal: "iam-new-principal",
  TtlDisabled: "ttl-disabled",
  TtlAttributeChanged: "ttl-attribute-changed",
  PitrDisabled: "pitr-disabled",
  DeletionProtectionOff: "deletion-protection-off",
  EncryptionOff: "encryption-off",
  RedriveRemoved: "redrive-removed",
  StateMachineTypeChange: "state-machine-type-change",
  InvocationTypeChange: "invocation-type-change",
  KeyDerivationChange: "key-derivation-change",
  /** The DLQ's policy does not refuse SQS's own redrive (StartMessageMoveTask). */
  DlqNativeMovesAllowed: "dlq-native-moves-allowed",
  /** The DLQ's policy does not refuse PurgeQueue. */
  DlqPurgeAllowed: "dlq-purge-allowed",
  /** More than one resource writes one queue's Policy (queue-policy-sources.ts). */
  QueuePolicySources: "queue-policy-sources",
  /** Online: a queue policy write leaves out statements of the live policy. */
  QueuePolicyDropsStatements: "queue-policy-drops-statements",
  /** Offline: a queue policy created for a queue the baseline has; its live statements are unknown. */
  QueuePolicyReplacesLive: "queue-policy-replaces-live",
  /** An alarm the plan destroys. */
  AlarmRemoved: "alarm-removed",
  /** An alarm that loses an action, disables its actions, or (planned alone) has none. */
  AlarmActionsRemoved: "alarm-actions-removed",
  /** The queue edit alert's EventBridge rule or its target destroyed: an edit that opens a path back from the DLQ tells nobody. */
  QueueEditAlertRemoved: "queue-edit-alert-removed",
  /** The source queue's RedriveAllowPolicy is not denyAll: a redrive policy (the DLQ's own, a temporary queue's) can target it. */
  SourceQueueRedriveAllowed: "source-queue-redrive-allowed",
  /** The DLQ has a redrive policy of its own: it moves quarantined copies to another queue. */
  DlqRedrivePolicy: "dlq-redrive-policy",
  SecondLayerKeyReset: "second-layer-key-reset",
  SecondLayerLegacyDropped: "second-layer-legacy-dropped",
  /** A queue's maximum message size falls: what it accepted before (and the DLQ holds) can no longer come back through it. */
  MessageSizeReduced: "message-size-reduced",
  /** An IAM role or dashboard renamed (the account-wide names carry the region): replaced, create first. */
  AccountWideRename: "account-wide-rename",
  /** The workflow starts or stops invoking the function once per batch: the function's event changes shape. */
  InvocationShapeChange: "invocation-shape-change",
} as const;
export type RiskKind = (typeof RiskKind)[keyof typeof RiskKind];

export interface RiskFlag {
  readonly kind: RiskKind;
  readonly severity: Severity;
  readonly address: string;
  readonly message: string;
  /** "terraform": from the plan's own before/after; "configuration": inferred by comparing two configurations. */
  readonly basis: "terraform" | "configuration";
}

export interface ServiceCount {
  readonly service: string;
  readonly create: number;
  readonly update: number;
  readonly replace: number;
  readonly destroy: number;
  readonly noop: number;
}

export interface PlanSummary {
  readonly create: number;
  readonly update: number;
  readonly replace: number;
  readonly destroy: number;
  readonly noop: number;
  readonly byService: readonly ServiceCount[];
}

export interface SettingChange {
  readonly address: string;
  readonly name: string | null;
  readonly setting: string;
  readonly before: Shown;
  readonly after: Shown;
}

/** Differences between the baseline configuration and this one. */
export interface ConfigurationChanges {
  readonly baseline: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly settings: readonly SettingChange[];
  readonly statementsAdded: readonly IamStatement[];
  readonly statementsRemoved: readonly IamStatement[];
}

export const ReviewMode = { Offline: "offline", Online: "online" } as const;
export type ReviewMode = (typeof ReviewMode)[keyof typeof ReviewMode];

/** How the actions in the summary were obtained. */
export const ActionBasis = {
  /** Offline, empty state: everything is a create. */
  EmptyState: "empty-state",
  /** Offline, against a state built from the baseline plan: Terraform's own update/replace verdicts. */
  SeededState: "seeded-state",
  /** Online: against the real state in the configured backend. */
  RealState: "real-state",
  /** A saved plan reviewed as is. */
  SavedPlan: "saved-plan",
} as const;
export type ActionBasis = (typeof ActionBasis)[keyof typeof ActionBasis];

export interface PlanReview {
  readonly kind: "plan-review";
  readonly version: 1;
  readonly stack: string | null;
  readonly mode: ReviewMode | null;
  readonly basis: ActionBasis;
  readonly terraformVersion: string | null;
  readonly summary: PlanSummary;
  readonly risks: readonly RiskFlag[];
  readonly resources: readonly ResourceFacts[];
  readonly changes: ConfigurationChanges | null;
  readonly notes: readonly string[];
}
