/** The SQS record a pipe hands its target and the pipe's filter criteria: what the filter judges. */

/** A message attribute as Pipes (like Lambda) delivers it: camelCase, binary values base64-encoded. */
export interface SqsRecordMessageAttribute {
  stringValue?: string;
  binaryValue?: string;
  stringListValues: string[];
  binaryListValues: string[];
  dataType: string;
}

/** One SQS message as the pipe hands it to its target (the bare array element, not wrapped in `Records`). */
export interface SqsRecord {
  messageId: string;
  receiptHandle: string;
  body: string;
  /** System attributes as SQS returns them with `All`: ApproximateReceiveCount, SentTimestamp, SenderId, ... */
  attributes: Record<string, string>;
  messageAttributes: Record<string, SqsRecordMessageAttribute>;
  md5OfBody: string;
  /** Present only when the message has message attributes. */
  md5OfMessageAttributes?: string;
  eventSource: "aws:sqs";
  eventSourceARN: string;
  awsRegion: string;
}

/** `SourceParameters.FilterCriteria` of the pipe. */
export interface FilterCriteria {
  Filters?: { Pattern?: string }[];
}

