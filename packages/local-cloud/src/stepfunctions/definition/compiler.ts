/** Tools the state compilers share: each compiles one kind of field and records problems instead of throwing. */
import { JsonataSyntaxError } from "../jsonata/expression";
import { compileTemplate, type Template } from "../jsonata/template";
import { compilePath, type CompiledPath } from "../jsonpath/path";
import { compilePayload, type PayloadTemplate } from "../jsonpath/payload";

export class Compiler {
  constructor(readonly problems: string[]) {}

  template(value: unknown, location: string, where: string): Template | undefined {
    try {
      return compileTemplate(value, location);
    } catch (e) {
      if (e instanceof JsonataSyntaxError) {
        this.problems.push(`${where}/${e.location ?? location}: the JSONata expression '${e.source}' is invalid: ${e.code} at position ${e.position}: ${e.message}`);
        return undefined;
      }
      throw e;
    }
  }

  path(value: unknown, where: string, allowNull = false): CompiledPath | null | undefined {
    if (value === undefined) return undefined;
    if (value === null && allowNull) return null;
    if (typeof value !== "string") {
      this.problems.push(`${where} must be a JSONPath string${allowNull ? " or null" : ""}`);
      return undefined;
    }
    try {
      return compilePath(value);
    } catch (e) {
      this.problems.push(`${where}: ${(e as Error).message}`);
      return undefined;
    }
  }

  payload(value: unknown, where: string, missingError?: string): PayloadTemplate | undefined {
    if (value === undefined) return undefined;
    const before = this.problems.length;
    const p = compilePayload(value, this.problems, missingError);
    for (let i = before; i < this.problems.length; i++) this.problems[i] = `${where}: ${this.problems[i]}`;
    return p;
  }
}

