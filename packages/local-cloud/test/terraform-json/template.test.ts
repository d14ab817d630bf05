import { describeTemplate, parseTemplate, renderTemplate, TemplateDirectiveError, TemplateSyntaxError, type ResourceReference } from "../../src/terraform-json";

const ref = (address: string, attribute: string, path: (string | number)[] = []): ResourceReference => {
  const data = address.startsWith("data.");
  const [type, name] = (data ? address.slice(5) : address).split(".");
  return { mode: data ? "data" : "managed", address, type, name, attribute, path };
};
const values: Record<string, string> = { "aws_sqs_queue.q.arn": "arn:q", "aws_sqs_queue.q.name": "q", "data.aws_partition.p.partition": "aws" };
const resolve = (r: ResourceReference) => values[`${r.address}.${r.attribute}`];

describe("Function: parseTemplate", () => {
  it("keeps $${literal} and %%{literal} literal, as ${literal} and %{literal}", () => {
    // Arrange / Act
    const parts = parseTemplate("$${literal} %%{literal}");

    // Assert
    expect(parts).toEqual([{ literal: "${literal} %{literal}" }]);
  });

  it("finds two references in one string, inside surrounding text", () => {
    // Arrange / Act
    const parts = parseTemplate("arn=${aws_sqs_queue.q.arn}, name=${ aws_sqs_queue.q.name }!");

    // Assert
    expect(parts).toEqual([
      { literal: "arn=" },
      { ref: ref("aws_sqs_queue.q", "arn"), source: "${aws_sqs_queue.q.arn}" },
      { literal: ", name=" },
      { ref: ref("aws_sqs_queue.q", "name"), source: "${ aws_sqs_queue.q.name }" },
      { literal: "!" },
    ]);
  });

  it.each([
    ["a data source", "${data.aws_partition.p.partition}", ref("data.aws_partition.p", "partition")],
    ["a name with dashes", "${aws_sfn_state_machine.state-machine_9F77.arn}", ref("aws_sfn_state_machine.state-machine_9F77", "arn")],
    ["an index after the attribute", "${aws_x.y.list[0]}", ref("aws_x.y", "list", [0])],
    ["a key after the attribute", '${aws_x.y.tags["k"]}', ref("aws_x.y", "tags", ["k"])],
  ])("reads %s as a reference", (_kind, template, expected) => {
    expect(parseTemplate(template)).toEqual([{ ref: expected, source: template }]);
  });

  it.each([
    ["a function call", "${jsonencode(var.x)}"],
    ["a variable", "${var.region}"],
    ["a local", "${local.name}"],
    ["a whole resource", "${aws_x.y}"],
    ["a counted instance", "${aws_x.y[0].arn}"],
    ["braces and a brace in a string", '${jsonencode({a = "}"})}'],
    ["a nested template", '${"${aws_sqs_queue.q.arn}"}'],
  ])("keeps %s as one opaque expression", (_kind, template) => {
    expect(parseTemplate(`<${template}>`)).toEqual([{ literal: "<" }, { expression: template }, { literal: ">" }]);
  });

  it("keeps a lone $ or %, and reads $$${ as a literal $ then an escape", () => {
    expect(parseTemplate("100% $5 $$${x.y.z}")).toEqual([{ literal: "100% $5 $${x.y.z}" }]);
  });

  it("applies strip markers to the adjacent literals only", () => {
    expect(renderTemplate("a  ${~aws_sqs_queue.q.name~}  b ${aws_sqs_queue.q.name} c", resolve)).toBe("aqb q c");
  });

  it("parses directives and refuses an unterminated sequence, naming where it is", () => {
    expect(parseTemplate("%{ if true }x%{ endif }")).toEqual([{ directive: "%{ if true }" }, { literal: "x" }, { directive: "%{ endif }" }]);
    expect(() => parseTemplate("arn ${aws_sqs_queue.q.arn", "output.arn")).toThrow(TemplateSyntaxError);
    expect(() => parseTemplate("arn ${aws_sqs_queue.q.arn", "output.arn")).toThrow(/^output\.arn: the \$\{ at character 4 .* is never closed; write \$\$\{ for a literal \$\{$/);
  });
});

describe("Function: renderTemplate", () => {
  it("fills every reference and decodes the escapes", () => {
    expect(renderTemplate("${aws_sqs_queue.q.name}:${aws_sqs_queue.q.arn} $${literal} %%{literal}", resolve)).toBe("q:arn:q ${literal} %{literal}");
  });

  it("is undefined when a reference or an expression has no value", () => {
    expect(renderTemplate("${aws_sqs_queue.other.arn}", resolve)).toBeUndefined();
    expect(renderTemplate("${upper(var.x)}", resolve)).toBeUndefined();
    expect(renderTemplate("${upper(var.x)}", resolve, { expression: (source) => `<${source}>` })).toBe("<${upper(var.x)}>");
  });

  it("refuses a template directive with an error naming the field and the fix", () => {
    const render = () => renderTemplate("%{ for s in var.list }${s}%{ endfor }", resolve, { where: "aws_sqs_queue.q.policy" });
    expect(render).toThrow(TemplateDirectiveError);
    expect(render).toThrow("aws_sqs_queue.q.policy: the template directive %{ for s in var.list } is not supported (only ${…} references are resolved); build the value without %{…} directives, or write %%{ for a literal %{");
  });
});

describe("Function: describeTemplate", () => {
  it("labels references to managed resources and shows everything else as written", () => {
    const shown = describeTemplate("${aws_sqs_queue.q.arn} ${data.aws_partition.p.partition} ${var.x} $${lit}", (r) => `<${r.address}>`);
    expect(shown).toBe("<aws_sqs_queue.q> ${data.aws_partition.p.partition} ${var.x} ${lit}");
  });
});
