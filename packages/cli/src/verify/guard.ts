/**
 * verify sends probes only to the stack it deployed: every output a probe addresses must name the probe stack's own
 * resource (read from its synthesized JSON), under the probe stack's name prefix, which differs from the team's.
 */
import { OutputName } from "@effectively-once/contract";
import { NotTheProbeStackError } from "./errors";
import { PROBE_PREFIX_SUFFIX, type ProbeStack } from "./probe-stack";

/** Throws naming each output that does not name the probe stack's resource. */
export function assertProbeOutputs(outputs: Readonly<Record<string, unknown>>, stack: ProbeStack): void {
  const prefix = stack.config.namePrefix;
  const n = stack.names;
  const expected: [string, (value: string) => boolean, string][] = [
    [OutputName.QueueUrl, (v) => v.endsWith(`/${n.queue}`), `a URL ending /${n.queue}`],
    [OutputName.QueueArn, (v) => v.endsWith(`:${n.queue}`), `an ARN ending :${n.queue}`],
    [OutputName.DlqUrl, (v) => v.endsWith(`/${n.dlq}`), `a URL ending /${n.dlq}`],
    [OutputName.DlqArn, (v) => v.endsWith(`:${n.dlq}`), `an ARN ending :${n.dlq}`],
    [OutputName.StateMachineArn, (v) => v.endsWith(`:stateMachine:${n.stateMachine}`), `an ARN ending :stateMachine:${n.stateMachine}`],
    [OutputName.LedgerTable, (v) => v === n.ledgerTable, n.ledgerTable],
    [OutputName.IdempotencyTable, (v) => v === n.idempotencyTable, n.idempotencyTable],
    [OutputName.FunctionName, (v) => v === n.functionName, n.functionName],
  ];
  const wrong = expected.filter(([name, ok]) => typeof outputs[name] !== "string" || !ok(outputs[name] as string)).map(([name, , want]) => `${name} = ${JSON.stringify(outputs[name])} (the probe stack's is ${want})`);
  const names = Object.values(n);
  const own = `${PROBE_PREFIX_SUFFIX}-${stack.probeId}`;
  if (!prefix.endsWith(own)) wrong.push(`the name prefix ${prefix} is not this run's probe stack's (…${own})`);
  for (const name of names) if (!name.includes(prefix)) wrong.push(`${name} does not carry the probe stack's prefix ${prefix}`);
  if (wrong.length > 0) throw new NotTheProbeStackError(`refusing to probe: these outputs do not name the probe stack ${stack.config.stackName}: ${wrong.join("; ")}`);
}
