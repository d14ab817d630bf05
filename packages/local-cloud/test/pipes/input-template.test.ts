import { PipeConfigError } from "@effectively-once/contract/pipe-filter";
import { compileInputTemplate } from "../../src/pipes/input-template";
import type { TemplateVariables } from "../../src/pipes/input-template";
import { makeRecord } from "./support/records";

const vars: TemplateVariables = {
  pipeArn: "arn:aws:pipes:us-east-2:123456789012:pipe/example",
  pipeName: "example",
  sourceArn: "arn:aws:sqs:us-east-2:123456789012:my-queue",
  targetArn: "arn:aws:states:us-east-2:123456789012:stateMachine:sm",
  enrichmentArn: "",
  ingestionTime: "2025-01-01T00:00:00.000Z",
};
const record = makeRecord({ body: '{"key":"v1","n":7,"nested":{"a":[1,2]}}' });
const render = (template: string, r = record) => compileInputTemplate(template)(r, vars);

describe("Function: compileInputTemplate", () => {
  it("renders the AWS examples: static string, JSON path, dynamic string", () => {
    expect(render('"Hello, sender"')).toEqual({ ok: true, value: "Hello, sender" });
    expect(render("<$.attributes.SenderId>")).toEqual({ ok: true, value: "AIDAIENQZJOLO23YVJ4VO" });
    expect(render('"Hello, <$.attributes.SenderId>"')).toEqual({ ok: true, value: "Hello, AIDAIENQZJOLO23YVJ4VO" });
  });

  it("reads into a JSON body (implicit body parsing) and keeps value types outside strings", () => {
    const result = render('{"key": <$.body.key>, "n": <$.body.n>, "second": <$.body.nested.a[1]>, "text": "n=<$.body.n>"}');
    expect(result).toEqual({ ok: true, value: { key: "v1", n: 7, second: 2, text: "n=7" } });
  });

  it("wraps the whole body as a JSON field value", () => {
    expect(render('{"data": <$.body>}')).toEqual({ ok: true, value: { data: { key: "v1", n: 7, nested: { a: [1, 2] } } } });
  });

  it("fills the reserved variables", () => {
    const result = render(
      '{"arn": <aws.pipes.pipe-arn>, "name": "<aws.pipes.pipe-name>", "source": <aws.pipes.source-arn>, ' +
        '"target": <aws.pipes.target-arn>, "at": <aws.pipes.event.ingestion-time>, "event": <aws.pipes.event.json>, "raw": <aws.pipes.event>}',
    );
    expect(result.ok).toBe(true);
    const value = (result as { value: Record<string, unknown> }).value;
    expect(value).toMatchObject({ arn: vars.pipeArn, name: "example", source: vars.sourceArn, target: vars.targetArn, at: vars.ingestionTime });
    expect((value.event as { body: unknown }).body).toEqual({ key: "v1", n: 7, nested: { a: [1, 2] } });
    expect((value.raw as { body: unknown }).body).toBe(record.body);
  });

  it("gives null for a missing path outside strings and nothing inside", () => {
    expect(render('{"x": <$.body.missing>, "s": "[<$.body.missing>]"}')).toEqual({ ok: true, value: { x: null, s: "[]" } });
  });

  it("keeps a plain-string body as a string", () => {
    expect(render('{"b": <$.body>}', makeRecord({ body: "plain" }))).toEqual({ ok: true, value: { b: "plain" } });
  });

  it("reports text that is not JSON instead of guessing", () => {
    const result = render("Hello, <$.attributes.SenderId>");
    expect(result.ok).toBe(false);
    // Outside a JSON string the value is inserted as JSON (with its quotes): the text is still not JSON.
    expect(result).toMatchObject({ text: 'Hello, "AIDAIENQZJOLO23YVJ4VO"' });
  });

  it("refuses unknown reserved variables and unreadable paths when compiled", () => {
    expect(() => compileInputTemplate("<aws.pipes.nope>")).toThrow(PipeConfigError);
    expect(() => compileInputTemplate("<$.a[x]>")).toThrow(/cannot read the JSON path/);
  });
});
