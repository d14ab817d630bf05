/** Which fields each state type accepts, per query language (unknown fields are definition errors). */

const FLOW = ["Next", "End"];
const JSONPATH_IO = ["InputPath", "OutputPath"];

/** Fields allowed per state type for JSONata states (besides Type, Comment, QueryLanguage). */
export const JSONATA_FIELDS: Record<string, readonly string[]> = {
  Pass: [...FLOW, "Assign", "Output"],
  Task: [...FLOW, "Assign", "Output", "Arguments", "Resource", "TimeoutSeconds", "HeartbeatSeconds", "Retry", "Catch", "Credentials"],
  Choice: ["Choices", "Default", "Assign", "Output"],
  Wait: [...FLOW, "Assign", "Output", "Seconds", "Timestamp"],
  Succeed: ["Output"],
  Fail: ["Error", "Cause"],
  Map: [
    ...FLOW, "Assign", "Output", "Items", "ItemSelector", "ItemProcessor", "Iterator", "MaxConcurrency", "ToleratedFailureCount",
    "ToleratedFailurePercentage", "Label", "Retry", "Catch", "ItemReader", "ItemBatcher", "ResultWriter",
  ],
  Parallel: [...FLOW, "Assign", "Output", "Arguments", "Branches", "Retry", "Catch"],
};

/** Fields allowed per state type for JSONPath states. */
export const JSONPATH_FIELDS: Record<string, readonly string[]> = {
  Pass: [...FLOW, ...JSONPATH_IO, "Assign", "Result", "ResultPath", "Parameters"],
  Task: [
    ...FLOW, ...JSONPATH_IO, "Assign", "Resource", "Parameters", "ResultSelector", "ResultPath", "TimeoutSeconds", "TimeoutSecondsPath",
    "HeartbeatSeconds", "HeartbeatSecondsPath", "Retry", "Catch", "Credentials",
  ],
  Choice: [...JSONPATH_IO, "Choices", "Default", "Assign"],
  Wait: [...FLOW, ...JSONPATH_IO, "Assign", "Seconds", "Timestamp", "SecondsPath", "TimestampPath"],
  Succeed: JSONPATH_IO,
  Fail: ["Error", "Cause", "ErrorPath", "CausePath"],
  Map: [
    ...FLOW, ...JSONPATH_IO, "Assign", "ItemsPath", "ItemSelector", "Parameters", "ItemProcessor", "Iterator", "MaxConcurrency",
    "MaxConcurrencyPath", "ToleratedFailureCount", "ToleratedFailureCountPath", "ToleratedFailurePercentage",
    "ToleratedFailurePercentagePath", "Label", "ResultSelector", "ResultPath", "Retry", "Catch", "ItemReader", "ItemBatcher", "ResultWriter",
  ],
  Parallel: [...FLOW, ...JSONPATH_IO, "Assign", "Parameters", "ResultSelector", "ResultPath", "Branches", "Retry", "Catch"],
};

/** JSONPath-only fields and what to use in a JSONata state instead. */
export const JSONPATH_ONLY: Record<string, string> = {
  InputPath: "use $states.input inside Arguments/Output",
  OutputPath: "use Output",
  Parameters: "use Arguments (or ItemSelector in a Map state)",
  ResultSelector: "use Output with $states.result",
  ResultPath: "use Output with $states.result",
  Result: "use Output",
  ItemsPath: "use Items",
  SecondsPath: "use Seconds with a JSONata expression",
  TimestampPath: "use Timestamp with a JSONata expression",
  ErrorPath: "use Error with a JSONata expression",
  CausePath: "use Cause with a JSONata expression",
  TimeoutSecondsPath: "use TimeoutSeconds with a JSONata expression",
  HeartbeatSecondsPath: "use HeartbeatSeconds with a JSONata expression",
  MaxConcurrencyPath: "use MaxConcurrency with a JSONata expression",
  ToleratedFailureCountPath: "use ToleratedFailureCount with a JSONata expression",
  ToleratedFailurePercentagePath: "use ToleratedFailurePercentage with a JSONata expression",
};

/** JSONata-only fields. */
export const JSONATA_ONLY: Record<string, string> = {
  Arguments: "use Parameters",
  Output: "use OutputPath/ResultPath/ResultSelector",
  Items: "use ItemsPath",
};
