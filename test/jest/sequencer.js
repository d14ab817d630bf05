// Starts the longest suites first (the simulation's settings space, its drawn-props budget and the budget in the fast tier, the offline terraform
// plan, which mostly waits, in the slow one), so they overlap the others on a fresh clone, where jest has no timings
// cached yet. Then jest's own order.
const Sequencer = require("@jest/test-sequencer").default;

const WAIT_BOUND = [/tools\/sim\/test\/scenario\/settings-space\.test\.ts$/, /tools\/sim\/test\/fuzz\/budget\.test\.ts$/, /tools\/sim\/test\/scenario\/drawn-props-budget\.test\.ts$/, /test\/plan\/terraform-plan\.test\.ts$/, /test\/contract\/decode-parity\.test\.ts$/];

class WaitBoundFirstSequencer extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const index = WAIT_BOUND.findIndex((pattern) => pattern.test(test.path));
      return index === -1 ? WAIT_BOUND.length : index;
    };
    const ordered = super.sort(tests);
    return [...ordered].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = WaitBoundFirstSequencer;
