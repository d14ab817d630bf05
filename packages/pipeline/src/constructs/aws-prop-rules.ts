import { Token } from "cdktf";
import { EventPatternError } from "@effectively-once/contract/pipe-filter";
import { compileEventPattern } from "@effectively-once/contract/pipe-filter";
import {
  ALARM_ACTION_MAX_CHARS,
  ALARM_ACTIONS_MAX,
  ALARM_ACTIONS_SOURCE,
  cite,
  LOG_RETENTION_DAYS,
  LOG_RETENTION_SOURCE,
  PIPE_FILTER_PATTERN_MAX_CHARS,
  PIPE_FILTER_SOURCE,
  PIPE_FILTERS_MAX,
  STATE_MACHINE_LOG_LEVELS,
  TERRAFORM_IDENTIFIER,
  TERRAFORM_IDENTIFIER_SOURCE,
} from "./aws-limits";
import type { PropProblem } from "./errors";
import type { PropRule } from "./prop-rules";
import type { ResolvedPipelineProps } from "./props";

const RETENTION = new Set<number>(LOG_RETENTION_DAYS);
const ARN = /^arn:aws[a-z-]*:[a-z0-9-]+:/;

/** The allowed retention values around a refused one, for the fix. */
function nearestRetentions(days: number): string {
  const below = [...LOG_RETENTION_DAYS].filter((d) => d < days).at(-1);
  const above = LOG_RETENTION_DAYS.find((d) => d > days);
  return [below, above].filter((d) => d !== undefined).join(" or ");
}

function filterProblems(p: ResolvedPipelineProps): PropProblem[] {
  const prop = "filterPatterns";
  const problems: PropProblem[] = [];
  // One of the pipe's patterns is the construct's own: it lets a quarantined copy moved back by SQS through (pipeFilterPatterns).
  const ownPatterns = PIPE_FILTERS_MAX - 1;
  if (p.filterPatterns.length > ownPatterns) {
    problems.push({ prop, value: p.filterPatterns.length, reason: `holds ${p.filterPatterns.length} patterns; a pipe takes at most ${PIPE_FILTERS_MAX}, and the construct adds one that lets quarantined copies moved back from the DLQ through`, fix: `merge them with "$or" into at most ${ownPatterns} (${cite(PIPE_FILTER_SOURCE)})` });
  }
  p.filterPatterns.forEach((pattern, i) => {
    const text = JSON.stringify(pattern) ?? "";
    if (text.length > PIPE_FILTER_PATTERN_MAX_CHARS) {
      problems.push({ prop: `${prop}[${i}]`, value: `${text.slice(0, 60)}…`, reason: `is ${text.length} characters of JSON; a pipe's pattern holds at most ${PIPE_FILTER_PATTERN_MAX_CHARS}`, fix: `shorten it or split it into several patterns (${cite(PIPE_FILTER_SOURCE)})` });
      return;
    }
    try {
      compileEventPattern(pattern);
    } catch (error) {
      if (!(error instanceof EventPatternError)) throw error;
      problems.push({ prop: `${prop}[${i}]`, value: pattern, reason: `is not an EventBridge event pattern (${error.message}); the pipe's creation would fail`, fix: "write it as EventBridge's pattern syntax, e.g. { body: { type: [\"order\"] } }" });
    }
  });
  return problems;
}

function alarmActionProblems(p: ResolvedPipelineProps): PropProblem[] {
  const prop = "alarmActions";
  const problems: PropProblem[] = [];
  if (p.alarmActions.length > ALARM_ACTIONS_MAX) {
    problems.push({ prop, value: p.alarmActions.length, reason: `names ${p.alarmActions.length} actions; an alarm takes at most ${ALARM_ACTIONS_MAX}`, fix: `notify one SNS topic and subscribe the rest to it (${cite(ALARM_ACTIONS_SOURCE)})` });
  }
  for (const action of p.alarmActions) {
    if (typeof action === "string" && Token.isUnresolved(action)) continue;
    if (typeof action !== "string" || !ARN.test(action) || action.length > ALARM_ACTION_MAX_CHARS) {
      problems.push({ prop, value: action, reason: `is not an ARN of at most ${ALARM_ACTION_MAX_CHARS} characters (arn:<partition>:<service>:…)`, fix: `give the ARN of an SNS topic (or another alarm action), e.g. a topic's .arn (${cite(ALARM_ACTIONS_SOURCE)})` });
    }
  }
  return problems;
}

function isBoolean(name: "tracing" | "pointInTimeRecovery" | "deletionProtection" | "includeExecutionDataInLogs"): PropRule {
  return { name, check: (p) => (typeof p[name] === "boolean" ? undefined : { prop: name, value: p[name], reason: "must be true or false", fix: `set ${name}: true or false` }) };
}

/** The props AWS (or Terraform) would refuse at plan or apply, besides names, the function and the region. */
export const AWS_PROP_RULES: readonly PropRule[] = [
  {
    name: "logRetentionDays",
    check: (p) =>
      // 0 is the provider's "never expire" (retention_in_days = 0 puts no retention policy on the group).
      RETENTION.has(p.logRetentionDays) || p.logRetentionDays === 0
        ? undefined
        : {
            prop: "logRetentionDays",
            value: p.logRetentionDays,
            reason: "is not a retention CloudWatch Logs accepts",
            fix: `use ${nearestRetentions(p.logRetentionDays) || "14"}: one of ${LOG_RETENTION_DAYS.join(", ")}, or 0 to never expire (${cite(LOG_RETENTION_SOURCE)})`,
          },
  },
  { name: "filterPatterns", check: filterProblems },
  { name: "alarmActions", check: alarmActionProblems },
  {
    name: "stateMachineLogLevel",
    check: (p) =>
      (STATE_MACHINE_LOG_LEVELS as readonly string[]).includes(p.stateMachineLogLevel)
        ? undefined
        : { prop: "stateMachineLogLevel", value: p.stateMachineLogLevel, reason: "is not a Step Functions log level", fix: `use one of ${STATE_MACHINE_LOG_LEVELS.join(", ")}` },
  },
  {
    name: "outputPrefix",
    check: (p) =>
      p.outputPrefix === "" || TERRAFORM_IDENTIFIER.test(p.outputPrefix)
        ? undefined
        : { prop: "outputPrefix", value: p.outputPrefix, reason: "would make output names Terraform refuses", fix: `start with a letter or '_', then letters, digits, '_' or '-' (${cite(TERRAFORM_IDENTIFIER_SOURCE)})` },
  },
  isBoolean("tracing"),
  isBoolean("pointInTimeRecovery"),
  isBoolean("deletionProtection"),
  isBoolean("includeExecutionDataInLogs"),
];
