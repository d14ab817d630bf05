import type { Assumptions } from "./assumptions";
import type { PathProfile } from "./paths";
import { readUnits, writeUnits } from "./usage";

/** Write and read request units one delivery on this path consumes. */
export function dynamoUnitsOf(profile: PathProfile, a: Assumptions): { writes: number; reads: number } {
  return {
    writes: profile.dynamo.reduce((sum, call) => sum + writeUnits(call, a), 0),
    reads: profile.dynamo.reduce((sum, call) => sum + readUnits(call, a), 0),
  };
}
