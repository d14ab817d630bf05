/** The committed answer sets of the verify tests, and the differences put into the "AWS" one on purpose. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AnswerSet } from "../../../src/verify/types";

/** The local cloud's answers on the payments app: re-record with `npm run verify -- --target local --record <this file>`. */
export const LOCAL_FIXTURE = join(__dirname, "..", "fixtures", "local-answers.json");
/** The local answers with deliberate differences: test data, not a recording of AWS. */
export const AWS_FIXTURE = join(__dirname, "..", "fixtures", "aws-answers-differing.json");

export const readAnswers = (file: string) => JSON.parse(readFileSync(file, "utf8")) as AnswerSet;

/** The differences put into the AWS fixture, as `probe › fact`. */
export const DELIBERATE = [
  "random-seed › $random(42)",
  "random-seed › equals java.util.Random(42).nextDouble() (0.7275636800328681)",
  "sync-input-limit › 262,144 characters, 262,145 bytes (one 2-byte character)",
  "record-serialization › <>&' written",
  "record-serialization › record within the synth's worst case",
  "message-move › SenderId",
  "message-move › message attributes kept",
  "failed-record-return › came back",
  "replan-drift › terraform plan after apply",
];
