import type { NameReader } from "./aws-names";
import type { Finding } from "./finding";
import { ACCOUNT_WIDE, NameType, type StackName } from "./names";

/**
 * What AWS does when the stack creates a name that already exists, per kind: most creates fail half way through the
 * apply; two take the existing resource over silently. SQS's CreateQueue returns the existing queue's URL when every
 * attribute given matches ("If you provide the name of an existing queue along with the exact names and values of all
 * the queue's attributes, CreateQueue returns the queue URL for the existing queue", SQS API reference), and
 * hashicorp/aws's create path (internal/service/sqs/queue.go, resourceQueueCreate) takes the URL it gets as the new
 * resource's id without looking first; PutDashboard overwrites ("If a dashboard with this name already exists, this
 * call modifies that dashboard").
 */
const ON_CREATE: Readonly<Record<NameType, string>> = {
  [NameType.Role]: "CreateRole fails (EntityAlreadyExists) after the tables and queues exist",
  [NameType.Queue]: "CreateQueue returns the existing queue when its attributes match, and Terraform adopts it silently: two stacks would share one queue (and a destroy deletes it for both); with other attributes it fails (QueueNameExists)",
  [NameType.Table]: "CreateTable fails (ResourceInUseException)",
  [NameType.Dashboard]: "PutDashboard overwrites it silently, and destroying either stack deletes the other's",
  [NameType.LogGroup]: "CreateLogGroup fails (ResourceAlreadyExistsException)",
  [NameType.Function]: "CreateFunction fails (ResourceConflictException)",
  [NameType.StateMachine]: "CreateStateMachine fails (StateMachineAlreadyExists) unless the definition and role are identical",
  [NameType.Pipe]: "CreatePipe fails (ConflictException)",
};

/**
 * One finding per name: ✘ when it exists and the stack's own state does not hold it. `owned` holds `<type> <name>` keys
 * from the Terraform state (--state); without one, an existing name may be this stack's own from an earlier deploy.
 */
export async function nameFindings(reader: NameReader, names: readonly StackName[], owned: ReadonlySet<string> | undefined): Promise<Finding[]> {
  const findings: Finding[] = [];
  let clashes = 0;
  for (const n of names) {
    if (!(await reader.exists(n.kind, n.name, n.arn))) continue;
    if (owned?.has(`${n.type} ${n.name}`)) {
      findings.push({ level: "ok", text: `${n.kind} ${n.name} exists and the stack's state holds it (a re-deploy)` });
      continue;
    }
    clashes += 1;
    const where = ACCOUNT_WIDE.has(n.kind) ? "in the account (IAM role and dashboard names are account-wide)" : "in this region";
    const fix = owned
      ? "another stack or person made it: give this pipeline another namePrefix, or import it (terraform import) if it is meant to be this stack's"
      : "if an earlier deploy of this stack made it, pass --state <terraform.tfstate>; otherwise give this pipeline another namePrefix";
    findings.push({ level: "fail", text: `${n.kind} ${n.name} already exists ${where}: ${ON_CREATE[n.kind]}. Fix: ${fix}` });
  }
  if (clashes === 0) findings.push({ level: "ok", text: `none of the stack's ${names.length} names exists yet${owned ? " outside its state" : ""} (${[...new Set(names.map((n) => n.kind))].join(", ")})` });
  return findings;
}
