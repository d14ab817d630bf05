/** The local cloud: the synthesized stack running offline on emulators and our own runners. */
export { startLocalCloud } from "./start";
export type { CloudEvent, LocalCloud, LocalCloudStats, OutcomeEvent } from "./types";
export { DEFAULT_STATE_FILE, removeStateFile, writeStateFile } from "@effectively-once/contract";
export type { EarlyVisibilityExpiry } from "./visibility-faults";
