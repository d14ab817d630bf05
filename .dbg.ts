import { createStateMachine, realClock } from "./local/stepfunctions";
import { renderPipelineDefinition } from "./statemachines/render";
import { PIPELINE_TEST_PARAMS } from "./test/helpers/pipeline-params";
const def = renderPipelineDefinition(PIPELINE_TEST_PARAMS);
const sqs = { async send(c: any) { console.log("DLQ", JSON.stringify(c.input.MessageAttributes)); return { MessageId: "x", $metadata: {} }; } } as any;
const m = createStateMachine(def, { name: "wf", arn: "arn:aws:states:us-east-1:000000000000:stateMachine:wf", clock: realClock, integrations: { dynamodb: {} as any, sqs, lambda: async () => ({ StatusCode: 200, Payload: "{}" }) } });
const rec = (id: string, body: string) => ({ messageId: id, receiptHandle: "r", body, attributes: { ApproximateReceiveCount: "1" }, messageAttributes: {}, md5OfBody: "x", eventSource: "aws:sqs", eventSourceARN: "arn", awsRegion: "us-east-1" });
m.execute([rec("a1", JSON.stringify({ tenantId: "t", orderId: "o", amount: 10, currency: "EUR" })), rec("a2", "{nope")]).then((r) => console.log(JSON.stringify(r.output), r.status, r.error));
