/**
 * The TestState action's request and answer, member for member as AWS's API model names them (botocore
 * `stepfunctions/2016-11-23`, TestStateInput and TestStateOutput). JSON values travel as JSON text.
 */

export const InspectionLevel = { Info: "INFO", Debug: "DEBUG", Trace: "TRACE" } as const;
export type InspectionLevel = (typeof InspectionLevel)[keyof typeof InspectionLevel];

export const FieldValidationMode = { Strict: "STRICT", Present: "PRESENT", None: "NONE" } as const;
export type FieldValidationMode = (typeof FieldValidationMode)[keyof typeof FieldValidationMode];

/** `status` of an answer, as AWS spells it. */
export const TestStatus = {
  Succeeded: "SUCCEEDED",
  Failed: "FAILED",
  /** A Retry would retry the error (with `stateConfiguration.retrierRetryCount` attempts already made). */
  Retriable: "RETRIABLE",
  /** A Catch handled the error: `nextState` is the catcher's. */
  CaughtError: "CAUGHT_ERROR",
} as const;
export type TestStatus = (typeof TestStatus)[keyof typeof TestStatus];

export interface TestStateInput {
  /** A state's definition, or a whole machine's with `stateName`. */
  definition: string;
  roleArn?: string;
  input?: string;
  inspectionLevel?: InspectionLevel;
  revealSecrets?: boolean;
  /** JSON object of variable name → value. */
  variables?: string;
  /** The state to test in a whole machine's `definition` (nested Map and Parallel states included). */
  stateName?: string;
  mock?: { result?: string; errorOutput?: { error?: string; cause?: string }; fieldValidationMode?: FieldValidationMode };
  /** JSON object: the context object of the state (only with a mock). */
  context?: string;
  stateConfiguration?: {
    retrierRetryCount?: number;
    errorCausedByState?: string;
    mapIterationFailureCount?: number;
    mapItemReaderData?: string;
  };
}

export interface InspectionErrorDetails {
  catchIndex?: number;
  retryIndex?: number;
  retryBackoffIntervalSeconds?: number;
}

/** Only at DEBUG and TRACE; which members a state reports depends on its type and query language (inspection.ts). */
export interface InspectionData {
  input?: string;
  afterArguments?: string;
  afterInputPath?: string;
  afterParameters?: string;
  result?: string;
  afterResultSelector?: string;
  afterResultPath?: string;
  variables?: string;
  errorDetails?: InspectionErrorDetails;
  afterItemsPath?: string;
  afterItemSelector?: string;
  toleratedFailureCount?: number;
  toleratedFailurePercentage?: number;
  maxConcurrency?: number;
}

export interface TestStateOutput {
  output?: string;
  error?: string;
  cause?: string;
  inspectionData?: InspectionData;
  nextState?: string;
  status: TestStatus;
}
