/** State types by their ASL `Type`. */
import { choiceState } from "./choice";
import { failState } from "./fail";
import { mapState } from "./map";
import { parallelState } from "./parallel";
import { passState } from "./pass";
import { succeedState } from "./succeed";
import { taskState } from "./task";
import type { StateTable } from "./types";
import { waitState } from "./wait";

export const STATE_TYPES: StateTable = {
  Pass: passState,
  Task: taskState,
  Choice: choiceState,
  Wait: waitState,
  Succeed: succeedState,
  Fail: failState,
  Map: mapState,
  Parallel: parallelState,
};
