/** Help texts: one per command, plus the overview. `PROG` is how the user started the CLI. */

export const PROG = "pipeline-ops";

const TARGET = `Target (one of):
  --local                   the local cloud \`npm start -- --serve\` runs (reads .local-cloud/state.json)
  --state <file>            the local cloud whose state file is <file> (implies --local)
  --outputs-file <file>     a deployed stack: the file \`cdktf deploy --outputs-file <file>\` wrote; AWS calls use the
                            default credential chain (AWS_PROFILE, environment, SSO, instance role)
  --stack <name>            the stack in the outputs file, when it holds several
  --region <region>         instead of the stack's "region" output
  --sqs-endpoint <url>      send SQS calls to <url> (e.g. an emulator); overrides the local cloud's endpoint too
  --dynamodb-endpoint <url> send DynamoDB calls to <url>`;

const EXIT = `Exit codes: 0 ok · 1 failure, refusal, or nothing matched (unknown key, empty DLQ) · 2 usage error ·
3 target unreachable or misconfigured (no state file, process gone, missing output, endpoint down, credentials)`;

const KEY = `A business key is the ledger's canonical JSON text of its parts, as \`dlq list\` and the ledger show it, e.g.
'["t1","o-42"]' (quote it for the shell), or its parts, with --part, in order (as strings).`;

const SCAN = `  --max <n>                 scan at most <n> DLQ messages (default 100, at most 1000)
                            the queue's redrive moved); default: the stack's output business_key_expression
                            the queue's redrive moved); default: the payments stack's "[tenantId, orderId]"
  --hold-seconds <n>        how long scanned messages stay hidden if the CLI dies mid-scan (default 30)`;

export const HELP: Record<string, string> = {
  overview: `${PROG}: dead-letter queue, ledger and key tracing for the effectively-once pipeline

Usage: ${PROG} <command> [arguments] <target> [options]
       npm run -s ops -- <command> [arguments] <target> [options]

Commands:
  status                    the pipeline at a glance: queue depth and age, the DLQ by reason and its first expiry,
                            alarm states, claims stuck IN_PROGRESS past their lease (exit 1 when any needs a person)
  dlq list                  DLQ messages with reason, business key, original message id and age (nothing consumed)
  dlq redrive               move DLQ messages back to the source queue (body unchanged)
  dlq guard                 whether the queues refuse SQS's own DLQ redrive (the console's) and purges
  ledger get <key>          the ledger claim of a business key: status, owner, lease, expiry, payload hash
  ledger release <key>      delete a stuck IN_PROGRESS claim (operator override, asks first)
  trace <key>               everything known about a key: ledger, Powertools record, effects, DLQ messages

${TARGET}

${EXIT}

\`${PROG} <command> --help\` describes a command.`,

  status: `Usage: ${PROG} status <target> [--json] [--max <n>] [--scan-items <n>]

The state of a pipeline in one view, what needs a person first:
  source queue      messages waiting, in flight and delayed; the oldest one's age (CloudWatch's
                    ApproximateAgeOfOldestMessage: a deployed stack only)
  dead-letter queue messages by reason, the retention, and when SQS deletes the oldest one (its enqueue time plus
                    the DLQ's retention; a message the queue's redrive moved keeps its original enqueue time)
  alarms            the stack's alarms (CloudWatch DescribeAlarms, names <namePrefix>-*), ALARM first; the local
                    cloud has no CloudWatch: "alarms: not evaluated locally"
  stuck claims      ledger claims IN_PROGRESS past their lease, each with the \`ledger release\` command that frees
                    it; and the function's Powertools records INPROGRESS past their expiry (they block nothing)

Stuck claims are found by a bounded, paginated Scan of the ledger (and the Powertools table): the read units it
used are printed. No index is kept for it: one would cost two writes on every message (docs/operations.md).

Options:
  --json                    one JSON document on stdout
  --scan-items <n>          read at most <n> items of each table (default 10000)
${SCAN}

Exit 0 when nothing needs a person; 1 when the DLQ holds a message, an alarm is in ALARM or a claim is stuck (the
view is printed either way); 3 when the target cannot be read.

${TARGET}

${EXIT}`,

  "dlq list": `Usage: ${PROG} dlq list <target> [--reason <reason>] [--key <key>] [--json] [--max <n>]

Lists the messages in the dead-letter queue, oldest first: age, reason, business key, original message id and
detail. Reasons: invalid-message, payload-mismatch, rejected (set by the state machine's quarantine) and
retries-exhausted (no reason attribute: the queue's redrive moved the message after maxReceiveCount receives).

Nothing is consumed: the scan holds each message it receives for a few seconds (so the next receive returns new
ones) and makes every message visible again at the end. Receiving adds one to a message's receive count; the DLQ
has no redrive policy, so that changes nothing.

Options:
  --reason <reason>         only messages with this reason
  --key <key>               only messages for this business key
  --json                    one JSON document on stdout
${SCAN}

Exit 1 (one line on stderr) when no message is listed: an empty DLQ, or nothing matches. A WARNING on stderr
(and "guard" in --json) says when the DLQ's policy lets SQS's own redrive or a purge through (see \`dlq guard\`).

${TARGET}

${EXIT}`,

  "dlq guard": `Usage: ${PROG} dlq guard <target> [--json]

Reads both queues' policies (sqs:GetQueueAttributes, attribute Policy) and says, per queue, whether SQS's own
actions that bypass \`dlq redrive\` are refused: on the DLQ a native message move (StartMessageMoveTask: the
console's "Start DLQ redrive", \`aws sqs start-message-move-task\`) and a purge, on the source queue a purge. Only
an explicit Deny to every principal without a condition counts as a refusal: the stack writes one unless its props
allowUnguardedDlqMoves or allowQueuePurge opt out.

Options:
  --json                    one JSON document on stdout: {"queues": [...]}

Exit 0 when every action is refused; 1 (with a WARNING per action on stderr) when a queue lets one through; 3 when
a queue's policy cannot be read (unreachable, credentials, no such queue).

${TARGET}

${EXIT}`,

  "dlq redrive": `Usage: ${PROG} dlq redrive <target> [--reason <reason>] [--key <key>] [--dry-run] [--force] [--direct] [--json]

Moves matching DLQ messages back to the source queue: sends each body unchanged, then deletes it from the DLQ,
in that order, so a crash in between leaves a duplicate rather than losing a message (the pipeline recognises
duplicates by business key). Without --reason/--key every message matches.

payload-mismatch messages are refused without --force: their key was already applied with another payload, a
replay cannot succeed (it is quarantined again) and an operator must decide what the change means. Before moving
rejected messages, fix what the function refused them for, or they come straight back.

Messages the pipeline might not recognise as already applied are refused without --force. The command reads
each key's ledger claim (dynamodb:GetItem): a copy may wait in the source queue for message_retention_seconds (Q,
4 d by default), and the pipeline recognises a message first sent up to retention_seconds − Q (W, 10 d) after a
charge. It moves a message whose key the ledger holds COMPLETED until at least now + Q (the copy is answered from
it); otherwise a rejected message first sent at most W ago (quarantined within Q of its first send), or any other
first sent at most Q ago. The first send is the firstSentTimestamp attribute, else the DLQ message's SentTimestamp
(a message the queue's redrive moved keeps its original enqueue time); every copy carries firstSentTimestamp, so
the age survives repeated quarantines and redrives. --force replays them with a WARNING per message: if the key was
applied before, it may be applied again.

Options:
  --reason <reason>         only messages with this reason
  --key <key>               only messages for this business key
  --dry-run                 show what would move; send and delete nothing
  --force                   also replay payload-mismatch messages and messages the pipeline might not recognise
  --direct                  deliver the copies the source queue cannot take (admitted under an earlier, larger
                            maxMessageBytes) to the state machine itself (states:StartSyncExecution); the DLQ
                            copy is deleted only once the execution's answer settles the record (standard queues)
  --json                    one JSON document on stdout (reminders still go to stderr)
${SCAN}

A copy larger than the source queue's MaximumMessageSize today (an upgrade lowered maxMessageBytes) is refused,
even with --force: the queue would refuse it, as it refuses a resend by hand. --direct starts the state machine on
one record built from it, as the pipe would (same body, the producer's attributes, firstSentTimestamp, a new
message id) and reads the answer as the pipe does: settled (processed, duplicate, or quarantined again) deletes the
DLQ copy; a retry, a failed or timed-out execution leaves it. The ledger guards this route like the pipe's.

Use this command, not SQS's own "Start DLQ redrive" (StartMessageMoveTask): that one gives each message a new id,
enqueue time and retention and skips every check above. The stack's DLQ policy refuses it; a WARNING on stderr says
when the deployed DLQ lets it (or a purge) through.

Exit 0 when at least one message moved (or would move), 1 when nothing matched or a message failed to move,
or payload-mismatch was asked for without --force; 3 when the stack has no retention outputs (deploy it again).

${TARGET}

${EXIT}`,

  "ledger get": `Usage: ${PROG} ledger get <key>|--part <p>... <target> [--operation <op>] [--json]

Shows the ledger claim of a business key (consistent read): status (IN_PROGRESS or COMPLETED), owner (the SQS
messageId that claimed it), claim id, payload hash, when it was claimed and completed, the lease (only while
IN_PROGRESS) and the retention expiry, with dates in UTC and relative times, and what the claim means for the
next message with this key.

${KEY}

Options:
  --part <p>                a key part (repeat, in order) instead of <key>
  --operation <op>          the ledger sort key (default: the stack's "operation" output)
  --json                    one JSON document on stdout (times as stored: epoch seconds)

Exit 1 when the key has no ledger item.

${TARGET}

${EXIT}`,

  "ledger release": `Usage: ${PROG} ledger release <key>|--part <p>... <target> [--operation <op>] [--yes]

Operator override for a stuck IN_PROGRESS claim (its worker died and the lease is long): deletes the claim,
conditional on the status, claim id and owner just read, so a claim that completed or was taken over meanwhile is
left alone. Asks for confirmation first. COMPLETED claims are refused: releasing one would let a duplicate apply
the effect again.

A claim whose lease has run out needs no release: the next delivery of the key takes it over.

${KEY}

Options:
  --part <p>                a key part (repeat, in order) instead of <key>
  --operation <op>          the ledger sort key (default: the stack's "operation" output)
  --yes                     do not ask (required when stdin is not a terminal)

Exit 1 when there is no claim, it is COMPLETED, it changed since it was read, or the answer was no;
exit 2 when a confirmation is needed and stdin is not a terminal.

${TARGET}

${EXIT}`,

  trace: `Usage: ${PROG} trace <key>|--part <p>... <target> [--operation <op>] [--json] [--max <n>]

Everything known about a business key in one view, with a verdict first ("applied once", "not applied:
quarantined as payload-mismatch", "in progress", …):
  ledger             the claim (status, owner, lease, expiry, payload hash)
  Powertools record  the function's idempotency record (status, expiry, validation hash, stored result)
  effects            the downstream charge and every call to it, with outcomes (applied / replayed / conflict)
  DLQ                messages for the key (scanned without consuming them, as \`dlq list\` does)

${KEY}

Options:
  --part <p>                a key part (repeat, in order) instead of <key>
  --operation <op>          default: the stack's "operation" output
  --json                    one JSON document on stdout
${SCAN}

Exit 1 when nothing at all is known about the key.

${TARGET}

${EXIT}`,
};
