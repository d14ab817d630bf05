/** Root of the errors raised while reading a synthesized stack or one of its templates. */
class TerraformJsonError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TerraformJsonError";
  }
}

/** A string Terraform itself would refuse to parse (an interpolation or directive that is never closed). */
export class TemplateSyntaxError extends TerraformJsonError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TemplateSyntaxError";
  }
}

/** A `%{ if … }` / `%{ for … }` template directive: valid Terraform, but this reader does not evaluate directives. */
export class TemplateDirectiveError extends TerraformJsonError {
  constructor(
    readonly directive: string,
    readonly where: string,
  ) {
    super(
      `${where}: the template directive ${directive} is not supported (only \${…} references are resolved); ` +
        "build the value without %{…} directives, or write %%{ for a literal %{",
    );
    this.name = "TemplateDirectiveError";
  }
}

/** The stack file is missing, is not JSON, or a block has the wrong shape. */
export class StackJsonError extends TerraformJsonError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StackJsonError";
  }
}
