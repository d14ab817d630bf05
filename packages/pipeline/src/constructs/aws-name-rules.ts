import { cite, NAME_LIMITS } from "./aws-limits";
import type { PropProblem } from "./errors";
import type { PropRule } from "./prop-rules";
import type { ResolvedPipelineProps } from "./props";
import { LONGEST_REGION, pipelineResourceNames, type ResourceName } from "./resource-names";

/** The characters `function.name` may hold: the strictest name it is part of (the Lambda function's). */
const FUNCTION_NAME = /^[A-Za-z0-9_-]+$/;

type NameProp = "namePrefix" | "function.name";

function propValue(p: ResolvedPipelineProps, prop: NameProp): string {
  return prop === "namePrefix" ? p.namePrefix : p.function.name;
}

/** The prop a name is blamed on: the function's name where it is part of it (the prefix is checked on its own). */
function blamed(name: ResourceName): NameProp | undefined {
  return name.props.includes("function.name") ? "function.name" : name.props.includes("namePrefix") ? "namePrefix" : undefined;
}

/** How a name's length adds up: each prop's characters, the region's (account-wide names) and the fixed text. */
function arithmetic(p: ResolvedPipelineProps, n: ResourceName): string {
  const parts = n.props.map((prop) => [prop, propValue(p, prop).length] as const);
  const region = n.region ? [[n.region.assumed ? `region (unknown at synth: the longest, ${LONGEST_REGION})` : `region ${n.region.text}`, n.region.text.length] as const] : [];
  const counted = [...parts, ...region];
  const fixed = n.name.length - counted.reduce((sum, [, length]) => sum + length, 0);
  return [...counted.map(([what, length]) => `${what} ${length}`), `fixed text ${fixed}`].join(" + ");
}

/** One problem per prop: every name it makes too long, and the longest value that fits them all. */
function tooLong(p: ResolvedPipelineProps, prop: NameProp, over: readonly ResourceName[]): PropProblem {
  const value = propValue(p, prop);
  const room = Math.min(...over.map((n) => NAME_LIMITS[n.kind].max - (n.name.length - value.length)));
  const listed = over.map((n) => `${NAME_LIMITS[n.kind].service} "${n.name}" (${arithmetic(p, n)} = ${n.name.length} > ${NAME_LIMITS[n.kind].max})`).join(", ");
  const other = prop === "function.name" ? ` with namePrefix "${p.namePrefix}"` : "";
  // An account-wide name carries the region: in any region the provider may name when it is not a literal.
  const anywhere = over.some((n) => n.region?.assumed) ? " in every region (the provider's region is not a literal)" : "";
  return {
    prop,
    value,
    reason: `makes ${over.length === 1 ? "a name" : "names"} longer than AWS accepts${anywhere}: ${listed}`,
    fix: room >= 1 ? `use at most ${room} characters${other}` : `shorten namePrefix: no ${prop} fits (${cite(NAME_LIMITS[over[0].kind].source)})`,
  };
}

/**
 * Every resource name the pipeline creates, held to its service's length and character rules (aws-limits.ts): a name
 * AWS refuses would pass `terraform validate` and fail the apply half way. `function.name` is checked on its own
 * first (its characters), then every derived name: the IAM role name (`<prefix>-<function>-role`, at most 64) is
 * usually the first to overflow.
 */
export const AWS_NAME_RULES: readonly PropRule[] = [
  {
    name: "function.name",
    check: (p) =>
      typeof p.function.name === "string" && FUNCTION_NAME.test(p.function.name)
        ? undefined
        : {
            prop: "function.name",
            value: p.function.name,
            reason: `is not a valid part of a Lambda function name (${NAME_LIMITS["lambda-function"].allowed} only)`,
            fix: `use letters, digits, '-' or '_', e.g. "charge-v2" (${cite(NAME_LIMITS["lambda-function"].source)})`,
          },
  },
  {
    name: "resourceNames",
    after: ["namePrefix", "function.name"],
    check: (p) => {
      const names = pipelineResourceNames(p).all;
      const problems: PropProblem[] = [];
      for (const prop of ["namePrefix", "function.name"] as const) {
        const mine = names.filter((n) => blamed(n) === prop);
        const over = mine.filter((n) => n.name.length > NAME_LIMITS[n.kind].max);
        if (over.length > 0) problems.push(tooLong(p, prop, over));
        const refused = mine.filter((n) => !NAME_LIMITS[n.kind].pattern.test(n.name) || n.name.length < NAME_LIMITS[n.kind].min);
        for (const n of refused) {
          const limit = NAME_LIMITS[n.kind];
          problems.push({ prop, value: propValue(p, prop), reason: `makes the ${limit.service} "${n.name}", which AWS refuses (${limit.min}-${limit.max} characters: ${limit.allowed})`, fix: `change ${prop} (${cite(limit.source)})` });
        }
      }
      return problems;
    },
  },
];
