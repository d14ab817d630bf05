/** The probes, in the order a run makes them: the ones that need no stack first, the longest wait last but one. */
import type { Probe } from "../types";
import { alarmProbe } from "./alarm";
import { attributesProbe } from "./attributes";
import { decodeProbe } from "./decode";
import { duplicateMembersProbe } from "./duplicate-members";
import { failedReturnProbe } from "./failed-return";
import { fifoGroupProbe } from "./fifo";
import { moveProbe } from "./move";
import { randomProbe } from "./random";
import { recordProbe } from "./record";
import { replanProbe } from "./replan";
import { sameKeyProbe } from "./same-key";
import { syncInputProbe } from "./sync-input";

export const PROBES: readonly Probe[] = [decodeProbe, duplicateMembersProbe, randomProbe, syncInputProbe, recordProbe, attributesProbe, sameKeyProbe, moveProbe, failedReturnProbe, alarmProbe, fifoGroupProbe, replanProbe];
