/** What a client can observe of the pipeline (effects, DLQ) and the guarantees checked over it. */
export { peekDlq } from "./dlq";
export type { DlqMessage } from "./dlq";
export { readEffects, readKeyEffects } from "./effects";
export type { KeyEffects } from "./effects";
export { verify } from "./verify";
export type { SentMessage, Verification } from "./verify";
export { formatTable } from "./table";
