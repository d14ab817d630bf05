/**
 * Choice: the first rule that holds picks Next (JSONata `Condition`, or JSONPath comparison rules).
 * A matching rule's Assign/Output apply; with no match, Default is taken with the state's own Assign/Output;
 * with no Default the state fails with States.NoChoiceMatched.
 */
import { QueryLanguage, type CompiledStateBase } from "../definition/compiled";
import { StatesError, StatesErrorName } from "../errors";
import { evaluateTyped, type Template } from "../jsonata/template";
import { compileRule, type Predicate } from "../jsonpath/choice-rules";
import type { PayloadTemplate } from "../jsonpath/payload";
import { selectPath } from "../jsonpath/dataflow";
import { commitAssign, jsonataBindings, pathRoots, statesVar } from "../runtime/bindings";
import { effectiveInput, finishJsonata, finishJsonPath } from "../runtime/io";
import type { StateType } from "./types";

interface Rule {
  next: string;
  condition?: Template;
  predicate?: Predicate;
  assign?: Template;
  output?: Template;
  assignPath?: PayloadTemplate;
}

interface ChoiceState extends CompiledStateBase {
  readonly rules: readonly Rule[];
  readonly default?: string;
}

export const choiceState: StateType<ChoiceState> = {
  fields: [],
  compile(raw, base, ctx) {
    const { problems, where, tools } = ctx;
    const jsonata = base.language === QueryLanguage.JSONata;
    if (!Array.isArray(raw.Choices) || raw.Choices.length === 0) {
      problems.push(`${where}/Choices must be a non-empty array of choice rules`);
      return { ...base, rules: [] };
    }
    if (raw.Default !== undefined && typeof raw.Default !== "string") problems.push(`${where}/Default must be a state name`);
    const rules = (raw.Choices as unknown[]).map((r, i): Rule => {
      const at = `${where}/Choices/${i}`;
      const rule = (r !== null && typeof r === "object" ? r : {}) as Record<string, unknown>;
      if (typeof rule.Next !== "string") problems.push(`${at}/Next must be a state name`);
      if (jsonata) {
        for (const key of Object.keys(rule)) {
          if (!["Condition", "Next", "Assign", "Output", "Comment"].includes(key)) problems.push(`${at}/${key}: JSONata choice rules use Condition (not '${key}')`);
        }
        if (rule.Condition === undefined) problems.push(`${at}/Condition is required in a JSONata choice rule`);
        return {
          next: String(rule.Next),
          condition: rule.Condition === undefined ? undefined : tools.template(rule.Condition, `Choices/${i}/Condition`, where),
          assign: rule.Assign === undefined ? undefined : tools.template(rule.Assign, `Choices/${i}/Assign`, where),
          output: rule.Output === undefined ? undefined : tools.template(rule.Output, `Choices/${i}/Output`, where),
        };
      }
      if (rule.Output !== undefined || rule.Condition !== undefined) problems.push(`${at}: Condition and Output are only supported in JSONata choice rules`);
      return {
        next: String(rule.Next),
        predicate: compileRule(rule, at, problems),
        assignPath: rule.Assign === undefined ? undefined : tools.payload(rule.Assign, `${at}/Assign`, StatesErrorName.Runtime),
      };
    });
    return { ...base, rules, default: typeof raw.Default === "string" ? raw.Default : undefined };
  },
  async execute(visit, run, thread) {
    const { state } = visit;
    if (state.language === QueryLanguage.JSONata) {
      const b = jsonataBindings(run, thread, statesVar(run, thread, visit.info, visit.input));
      for (const rule of state.rules) {
        const holds = await evaluateTyped(rule.condition as Template, b, "boolean");
        if (holds !== true) continue;
        const assigned = rule.assign ? await evaluateTyped(rule.assign, b, "object") : undefined;
        const output = rule.output ? await rule.output.evaluate(b) : visit.input;
        commitAssign(thread, assigned, visit.state.name);
        return { output, next: rule.next };
      }
      if (state.default === undefined) throw noMatch(state.name);
      return { output: await finishJsonata(visit, run, thread, undefined, visit.input), next: state.default };
    }
    const input = effectiveInput(visit, run, thread);
    const roots = pathRoots(run, thread, visit.info, input);
    for (const rule of state.rules) {
      if (!(rule.predicate as Predicate)(roots)) continue;
      const assigned = rule.assignPath?.evaluate(roots);
      const output = state.outputPath === undefined ? input : selectPath(state.outputPath, roots);
      commitAssign(thread, assigned, visit.state.name);
      return { output, next: rule.next };
    }
    if (state.default === undefined) throw noMatch(state.name);
    return { output: finishJsonPath(visit, run, thread, input, { selector: false, resultPath: false }), next: state.default };
  },
};

function noMatch(stateName: string): StatesError {
  return new StatesError(StatesErrorName.NoChoiceMatched, `No Matches! (state '${stateName}')`);
}
