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

/** A mocked error (AWS's MockErrorOutput). */
export interface MockErrorOutput {
  /** The error name, as a Retry's or Catch's ErrorEquals would match it. */
  error?: string;
  /** The error's cause. */
  cause?: string;
}

/** A state's mocked outcome (AWS's MockInput): a result or an error, never both. */
export interface TestStateMock {
  /** The mocked result, JSON text. */
  result?: string;
  /** The mocked error. */
  errorOutput?: MockErrorOutput;
  /** How strictly a Task's mocked result is held to its API's output shape (default STRICT). */
  fieldValidationMode?: FieldValidationMode;
}

/** A TestState request (AWS's TestStateInput). */
export interface TestStateInput {
  /** A state's definition, or a whole machine's with `stateName`. */
  definition: string;
  /** The execution role; required to test a Task that is not mocked, optional otherwise. */
  roleArn?: string;
  /** The state's input (JSON text); `{}` when absent. */
  input?: string;
  /** What `inspectionData` reports: none at INFO (the default), the data flow at DEBUG and TRACE. */
  inspectionLevel?: InspectionLevel;
  /** Accepted, and refused together with a mock as AWS does; the local cloud has no secrets to reveal. */
  revealSecrets?: boolean;
  /** JSON object of variable name → value. */
  variables?: string;
  /** The state to test in a whole machine's `definition` (nested Map and Parallel states included). */
  stateName?: string;
  /**
   * The state's result (`result`, JSON text) or error (`errorOutput`) instead of calling its integration, iterations
   * or branches: Task, Map and Parallel states only. `fieldValidationMode` (default STRICT) checks a Task's result
   * against the output shape of the API it calls.
   */
  mock?: TestStateMock;
  /** JSON object: the context object of the state, replacing the generated one (only with a mock). */
  context?: string;
  /** The situation the state runs in. */
  stateConfiguration?: {
    /** Retries already made by the Retry that matches the mocked error (default 0). */
    retrierRetryCount?: number;
    /** The state inside a mocked Map or Parallel the mocked error comes from. */
    errorCausedByState?: string;
    /** Failed iterations of a mocked Map, held against its ToleratedFailureCount/Percentage. */
    mapIterationFailureCount?: number;
    /** Accepted and unused: ItemReader does not run locally. */
    mapItemReaderData?: string;
  };
}

/** How Retry and Catch handled the state's error. */
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

/** A TestState answer (AWS's TestStateOutput). */
export interface TestStateOutput {
  /** The state's output (JSON text): SUCCEEDED and CAUGHT_ERROR. */
  output?: string;
  /** The error name: FAILED, RETRIABLE and CAUGHT_ERROR. */
  error?: string;
  /** The error's cause. */
  cause?: string;
  /** Only at DEBUG and TRACE. */
  inspectionData?: InspectionData;
  /** Where the state hands over (Next, a Choice's pick, a Catcher's Next); absent at an end or on failure. */
  nextState?: string;
  /** How the state ended: succeeded, failed, retriable (a Retry would retry) or caught (a Catch handled it). */
  status: TestStatus;
}
