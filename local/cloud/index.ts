/** The local cloud: the synthesized stack running offline on emulators and our own runners. */
export { startLocalCloud } from "./start";
export { RecordOutcome } from "./types";
export type { CloudEvent, LocalCloud, LocalCloudOptions, LocalCloudStats, OutcomeCounts, OutcomeEvent } from "./types";
export { DEFAULT_STATE_FILE, isStateLive, readStateFile, removeStateFile, writeStateFile } from "./state-file";
export type { LocalCloudState } from "./state-file";
export type { EarlyVisibilityExpiry } from "./visibility-faults";
export type { LocalClock } from "../clock";
