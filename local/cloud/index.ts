/** The local cloud: the synthesized stack running offline on emulators and our own runners. */
export { startLocalCloud } from "./start";
export { RecordOutcome } from "./types";
export type { CloudEvent, LocalCloud, LocalCloudOptions, LocalCloudStats, OutcomeCounts, OutcomeEvent } from "./types";
