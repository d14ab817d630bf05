/**
 * The difference report, from two committed answer sets: the local cloud's answers (recorded by
 * `npm run verify -- --target local --record packages/cli/test/verify/fixtures/local-answers.json`) and an "AWS" set that is the
 * same with deliberate differences (test data, not a recording). Every deliberate difference must be named, with
 * both answers; nothing else may be.
 */
import { compareAnswers } from "../../src/verify/compare";
import { PROBES } from "../../src/verify/probes";
import { formatReport } from "../../src/verify/report";
import { exitCodeOf } from "../../src/verify/run";
import type { AnswerSet } from "../../src/verify/types";
import { AWS_FIXTURE, DELIBERATE, LOCAL_FIXTURE, readAnswers } from "./support/fixtures";

const LOCAL = readAnswers(LOCAL_FIXTURE);
const AWS = readAnswers(AWS_FIXTURE);

describe("Function: compareAnswers", () => {
  it("names exactly the deliberate differences, each with AWS's answer and the local cloud's", () => {
    // Act
    const comparison = compareAnswers(AWS, LOCAL);

    // Assert: the record's size and the return's timing also differ, but are not compared (ids and timings differ by nature).
    expect(comparison.differences.map((d) => `${d.probe} › ${d.fact}`)).toEqual(DELIBERATE);
    expect(comparison.differences).toContainEqual({ probe: "sync-input-limit", fact: "262,144 characters, 262,145 bytes (one 2-byte character)", aws: "accepted", local: "refused: ValidationException" });
    expect(comparison.differences).toContainEqual({ probe: "message-move", fact: "message attributes kept", aws: "none", local: "verifyNumber, verifyString" });
    expect(exitCodeOf(comparison)).toBe(1);
  });

  it("finds no difference between a set and itself, and a failed check still fails the run", () => {
    expect(compareAnswers(LOCAL, LOCAL).differences).toEqual([]);
    expect(exitCodeOf(compareAnswers(LOCAL, LOCAL))).toBe(0);
    expect(exitCodeOf(compareAnswers(AWS, AWS))).toBe(1);
  });

  it("counts a probe that did not finish as a difference", () => {
    const broken: AnswerSet = { ...LOCAL, answers: LOCAL.answers.map((a) => (a.probe === "same-key-batches" ? { probe: a.probe, facts: [], error: "Error: gave up waiting 300 s" } : a)) };
    const { differences } = compareAnswers(broken, LOCAL);
    expect(differences).toContainEqual({ probe: "same-key-batches", fact: "the probe did not finish", aws: "AWS: Error: gave up waiting 300 s", local: "finished" });
  });

  it("compares nothing when there is no AWS side", () => {
    const comparison = compareAnswers(undefined, LOCAL);
    expect(comparison.differences).toEqual([]);
    expect(comparison.probes.flatMap((p) => p.facts).some((f) => f.differs)).toBe(false);
  });
});

describe("Function: formatReport", () => {
  it("prints each probe's facts side by side, every difference in words, and the loud failure", () => {
    const text = formatReport(compareAnswers(AWS, LOCAL), PROBES, "AWS");
    expect(text).toContain(`${DELIBERATE.length} difference(s) between AWS and the local cloud:`);
    expect(text).toContain(`≠ sync-input-limit › 262,144 characters, 262,145 bytes (one 2-byte character): AWS answers "accepted", the local cloud "refused: ValidationException"`);
    expect(text).toContain(`≠ failed-record-return › came back: AWS answers "at once", the local cloud "after the visibility timeout"`);
    expect(text).toContain("✘ record-serialization: AWS: the record took 7200 bytes, above the synth's worst case of 7155");
    // Every probe the recorded (standard) stack ran: the FIFO probe applies to FIFO stacks only (packages/cli/test/verify/fifo.test.ts).
    const ran = new Set(LOCAL.answers.map((a) => a.probe));
    expect(PROBES.filter((probe) => !ran.has(probe.id)).map((probe) => probe.id)).toEqual(["fifo-group-order"]);
    for (const probe of PROBES.filter((p) => ran.has(p.id))) expect(text).toContain(`${probe.id}: ${probe.title}`);
  });
});

describe("Function: compareAnswers over some probes (--only)", () => {
  it("compares only the probes the run made, whatever else the recorded set holds", () => {
    const some: AnswerSet = { ...LOCAL, answers: LOCAL.answers.filter((a) => a.probe === "sync-input-limit") };
    expect(compareAnswers(AWS, some).differences.map((d) => `${d.probe} › ${d.fact}`)).toEqual(DELIBERATE.filter((d) => d.startsWith("sync-input-limit")));
  });
});
