/**
 * `$random(42)` through TestState. JSONata 2.0.6 (the interpreter) takes no seed; a third-party emulator's issue
 * (floci-io/floci 2662) reports that AWS seeds java.util.Random, giving 0.7275636800328681. No AWS recording is
 * known: the probe reports what AWS answers, and whether a second call repeats it.
 */
import type { Probe } from "../types";
import { testState } from "./test-state";

/** `new java.util.Random(42).nextDouble()`. */
const JAVA_RANDOM_42 = 0.7275636800328681;

const STATE = JSON.stringify({ Type: "Pass", QueryLanguage: "JSONata", Output: "{% $random(42) %}", End: true });

export const randomProbe: Probe = {
  id: "random-seed",
  title: "$random(42) in AWS's JSONata (TestState)",
  protects: "none directly: the pipeline's definition never calls $random; a workflow of the team's own might",
  needsStack: false,
  calls: () => [{ service: "Step Functions", action: "TestState", count: 2, resource: "a Pass state sent inline", why: "$random(42), twice" }],
  async run(context) {
    const first = await testState(context, { definition: STATE });
    const second = await testState(context, { definition: STATE });
    return {
      facts: [
        ["$random(42)", first.text],
        ["a second call gives the same", first.output !== undefined ? String(first.text === second.text) : "n/a"],
        [`equals java.util.Random(42).nextDouble() (${JAVA_RANDOM_42})`, String(first.output === JAVA_RANDOM_42)],
      ],
    };
  },
};
