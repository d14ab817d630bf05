/**
 * Four TestState requests every client of the endpoint is held to (AWS SDK, AWS CLI v1), with the answer expected
 * at each inspection level. The inspectionData members follow AWS's recordings for each state type and language
 * (see recorded-*.test.ts).
 */
import type { TestStateInput } from "../../../src/stepfunctions/test-state";
import { LEVELS, type Parsed } from "./support";

type Level = (typeof LEVELS)[number];
interface Case {
  readonly request: Omit<TestStateInput, "inspectionLevel">;
  answer(level: Level): Parsed;
}

const at = (level: Level, answer: Parsed, inspection: Record<string, unknown>): Parsed => (level === "INFO" ? answer : { ...answer, inspectionData: inspection });

const ITEMS = { items: [{ price: 2 }, { price: 3 }] };
const ORDER = { order: { id: "o-1", amount: 1250 } };
const INVOKE_RESULT = { StatusCode: 200, ExecutedVersion: "$LATEST", Payload: "charged" };
const ORDERS = { orders: [{ id: "o-1" }, { id: "o-2" }] };
const CHARGED = [{ charged: "o-1" }, { charged: "o-2" }];

export const CASES: Record<string, Case> = {
  "a JSONata Pass with variables": {
    request: {
      definition: JSON.stringify({ Type: "Pass", QueryLanguage: "JSONata", Assign: { total: "{% $sum($states.input.items.price) %}" }, Output: { count: "{% $count($states.input.items) %}", currency: "{% $currency %}" }, Next: "Charge" }),
      input: JSON.stringify(ITEMS),
      variables: JSON.stringify({ currency: "EUR" }),
    },
    answer: (level) => at(level, { output: { count: 2, currency: "EUR" }, nextState: "Charge", status: "SUCCEEDED" }, { input: ITEMS, variables: { currency: "EUR", total: 5 } }),
  },
  "a JSONPath Task with a mocked result": {
    request: {
      definition: JSON.stringify({ Type: "Task", Resource: "arn:aws:states:::lambda:invoke", InputPath: "$.order", Parameters: { FunctionName: "charge", "Payload.$": "$" }, ResultSelector: { "status.$": "$.StatusCode" }, ResultPath: "$.invoke", Next: "Done" }),
      input: JSON.stringify(ORDER),
      mock: { result: JSON.stringify(INVOKE_RESULT) },
    },
    answer: (level) =>
      at(level, { output: { ...ORDER, invoke: { status: 200 } }, nextState: "Done", status: "SUCCEEDED" }, {
        input: ORDER,
        afterInputPath: ORDER.order,
        afterParameters: { FunctionName: "charge", Payload: ORDER.order },
        result: INVOKE_RESULT,
        afterResultSelector: { status: 200 },
        afterResultPath: { ...ORDER, invoke: { status: 200 } },
      }),
  },
  "a JSONata Task whose mocked error a Catch handles": {
    request: {
      definition: JSON.stringify({
        Type: "Task",
        QueryLanguage: "JSONata",
        Resource: "arn:aws:states:::dynamodb:putItem",
        Arguments: { TableName: "ledger", Item: { pk: { S: "{% $states.input.key %}" } }, ConditionExpression: "attribute_not_exists(pk)" },
        Retry: [{ ErrorEquals: ["DynamoDB.ProvisionedThroughputExceededException"], MaxAttempts: 3 }],
        Catch: [{ ErrorEquals: ["DynamoDB.ConditionalCheckFailedException"], Output: "{% {'duplicate': true, 'error': $states.errorOutput.Error} %}", Next: "Inspect" }],
        Next: "Invoke",
      }),
      input: JSON.stringify({ key: "t-1#o-1" }),
      roleArn: "arn:aws:iam::000000000000:role/workflow",
      mock: { errorOutput: { error: "DynamoDB.ConditionalCheckFailedException", cause: "The conditional request failed" } },
    },
    answer: (level) =>
      at(
        level,
        { error: "DynamoDB.ConditionalCheckFailedException", cause: "The conditional request failed", output: { duplicate: true, error: "DynamoDB.ConditionalCheckFailedException" }, nextState: "Inspect", status: "CAUGHT_ERROR" },
        { input: { key: "t-1#o-1" }, afterArguments: { TableName: "ledger", Item: { pk: { S: "t-1#o-1" } }, ConditionExpression: "attribute_not_exists(pk)" }, errorDetails: { catchIndex: 0 } },
      ),
  },
  "a mocked Map addressed with stateName in a whole machine": {
    request: {
      definition: JSON.stringify({
        Comment: "Charges every order of a batch",
        StartAt: "ChargeAll",
        States: {
          ChargeAll: {
            Type: "Map",
            ItemsPath: "$.orders",
            MaxConcurrency: 2,
            ToleratedFailureCount: 1,
            ItemProcessor: { StartAt: "Charge", States: { Charge: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Parameters: { FunctionName: "charge", "Payload.$": "$" }, End: true } } },
            ResultPath: "$.results",
            Next: "Report",
          },
          Report: { Type: "Succeed" },
        },
      }),
      stateName: "ChargeAll",
      input: JSON.stringify(ORDERS),
      mock: { result: JSON.stringify(CHARGED) },
    },
    answer: (level) =>
      at(level, { output: { ...ORDERS, results: CHARGED }, nextState: "Report", status: "SUCCEEDED" }, {
        input: ORDERS,
        afterInputPath: ORDERS,
        afterItemsPath: ORDERS.orders,
        maxConcurrency: 2,
        toleratedFailureCount: 1,
        afterResultSelector: CHARGED,
        afterResultPath: { ...ORDERS, results: CHARGED },
      }),
  },
};

/** Every case at every level, for `it.each`. */
export const CASE_LEVELS: Array<[string, Level]> = Object.keys(CASES).flatMap((name) => LEVELS.map((level): [string, Level] => [name, level]));
