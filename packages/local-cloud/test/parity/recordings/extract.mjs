// Copies the recorded answers this repository replays out of a LocalStack checkout (Apache-2.0, see NOTICE.md):
// `node packages/local-cloud/test/parity/recordings/extract.mjs <localstack checkout>` rewrites the three JSON files here with
// the cases listed below, each with its recorded content and the date it was last validated against AWS.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

const WANTED = {
  "sqs.json": {
    file: "tests/aws/services/sqs/test_sqs",
    cases: [
      "TestSqsProvider::test_receive_message_message_attribute_names_filters[sqs]",
      "TestSqsProvider::test_receive_message_message_attribute_names_filters[sqs_query]",
      "TestSqsProvider::test_receive_message_attribute_names_filters[sqs]",
      "TestSqsProvider::test_receive_message_message_system_attribute_names_filters[sqs]",
      "TestSqsProvider::test_message_system_attribute_names_with_attribute_names[sqs]",
      "TestSqsProvider::test_aws_trace_header_propagation[sqs]",
      "TestSqsProvider::test_dead_letter_queue_message_attributes",
      "TestSqsProvider::test_change_message_visibility_after_visibility_timeout_expiration[sqs]",
      "TestSqsProvider::test_change_message_visibility_after_visibility_timeout_expiration[sqs_query]",
      "TestSqsProvider::test_delete_after_visibility_timeout[sqs]",
      "TestSqsProvider::test_send_oversized_message[sqs]",
      "TestSqsProvider::test_send_oversized_message[sqs_query]",
      "TestSqsProvider::test_send_message_with_updated_maximum_message_size[sqs]",
      "TestSqsProvider::test_send_message_batch_with_oversized_contents[sqs]",
      "TestSqsProvider::test_send_message_batch_with_oversized_contents_with_updated_maximum_message_size[sqs]",
      "TestSqsProvider::test_send_empty_message[sqs]",
      "TestSqsProvider::test_send_empty_message[sqs_query]",
      "TestSqsProvider::test_non_existent_queue",
      "TestSqsProvider::test_send_message_with_binary_attributes[sqs]",
      "TestSqsProvider::test_send_message_with_empty_string_attribute[sqs]",
      "TestSqsProvider::test_too_many_entries_in_batch_request[sqs]",
      "TestSqsProvider::test_invalid_batch_id[sqs]",
      "TestSqsProvider::test_delete_message_batch_with_too_large_batch[sqs]",
      "TestSqsProvider::test_change_message_visibility_batch_with_too_large_batch[sqs]",
      "TestSqsProvider::test_send_receive_max_number_of_messages[sqs]",
      "TestSqsProvider::test_successive_purge_calls_fail[sqs]",
      "TestSqsProvider::test_receive_empty_queue[sqs]",
      "TestSqsProvider::test_send_receive_wait_time_seconds[sqs]",
      "TestSqsProvider::test_send_batch_message_size",
      // FIFO queues: deduplication (its window, scope and ids), delivery in group order, the ids' checks.
      "TestSqsProvider::test_fifo_deduplication_arrives_once_after_delete[sqs-True]",
      "TestSqsProvider::test_fifo_deduplication_arrives_once_after_delete[sqs-False]",
      "TestSqsProvider::test_fifo_deduplication_not_on_message_group_id[sqs-True]",
      "TestSqsProvider::test_fifo_deduplication_not_on_message_group_id[sqs-False]",
      "TestSqsProvider::test_sqs_fifo_same_dedup_id_different_message_groups[sqs]",
      "TestSqsProvider::test_fifo_high_throughput_ordering[sqs]",
      "TestSqsProvider::test_sqs_fifo_message_group_scope_no_throughput_setting[sqs]",
      "TestSqsProvider::test_fifo_group_visibility_extends_with_change_message_visibility[sqs-0-visible]",
      "TestSqsProvider::test_fifo_group_visibility_extends_with_change_message_visibility[sqs-1-visible]",
      "TestSqsProvider::test_fifo_group_visibility_extends_with_change_message_visibility[sqs-2-visible]",
      "TestSqsProvider::test_fifo_empty_message_groups_added_back_to_queue[sqs]",
      "TestSqsProvider::test_posting_to_fifo_requires_deduplicationid_group_id[sqs]",
      "TestSqsProvider::test_message_deduplication_id_invalid[empty]",
      "TestSqsProvider::test_message_deduplication_id_invalid[too_long]",
      "TestSqsProvider::test_message_deduplication_id_invalid[spaces]",
      "TestSqsProvider::test_fifo_queue_send_message_with_delay_seconds_fails[sqs]",
      "TestSqsProvider::test_send_batch_missing_deduplication_id_for_fifo_queue[sqs]",
      "TestSqsProvider::test_send_batch_missing_message_group_id_for_fifo_queue[sqs]",
    ],
  },
  "sqs-move-task.json": {
    file: "tests/aws/services/sqs/test_sqs_move_task",
    cases: [
      "test_basic_move_task_workflow",
      "test_source_needs_redrive_policy",
      "test_cancel_with_invalid_task_handle",
      "test_cancel_with_invalid_source_arn_in_task_handle",
      "test_cancel_with_invalid_task_id_in_task_handle",
      "test_move_task_with_throughput_limit",
      "test_destination_needs_to_exist",
      "test_move_task_cancel",
      "test_move_task_delete_destination_queue_while_running",
      "test_start_multiple_move_tasks",
      "test_move_task_workflow_with_default_destination",
      "test_move_task_workflow_with_multiple_sources_as_default_destination",
    ],
  },
  "dynamodb.json": {
    file: "tests/aws/services/dynamodb/test_dynamodb",
    cases: [
      "TestDynamoDB::test_return_values_on_conditions_check_failure",
      "TestDynamoDB::test_return_values_in_put_item",
      "TestDynamoDB::test_transaction_write_items",
      "TestDynamoDB::test_transaction_write_canceled",
      "TestDynamoDB::test_transaction_write_binary_data",
      "TestDynamoDB::test_transact_get_items",
      "TestDynamoDB::test_dynamodb_idempotent_writing",
    ],
  },
};

const checkout = process.argv[2];
if (!checkout) throw new Error("usage: extract.mjs <localstack checkout (a work tree or a bare git directory)>");
const git = (...args) => execFileSync("git", ["-C", checkout, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
const commit = git("rev-parse", "HEAD").trim();
const read = (file) => JSON.parse(git("show", `HEAD:${file}`));

for (const [out, { file, cases }] of Object.entries(WANTED)) {
  const snapshots = read(`${file}.snapshot.json`);
  const validations = read(`${file}.validation.json`);
  const picked = {};
  for (const name of cases) {
    const key = `${file}.py::${name}`;
    if (!snapshots[key]) throw new Error(`${key}: no recorded snapshot`);
    picked[name] = { validated: validations[key]?.last_validated_date ?? null, recorded: snapshots[key]["recorded-content"] };
  }
  const source = { repository: "https://github.com/localstack/localstack", commit, path: `${file}.snapshot.json`, license: "Apache-2.0" };
  const target = path.join(path.dirname(new URL(import.meta.url).pathname), out);
  writeFileSync(target, `${JSON.stringify({ source, cases: picked }, null, 1)}\n`);
  console.log(`${out}: ${cases.length} cases from ${file}.snapshot.json @ ${commit.slice(0, 12)}`);
}
