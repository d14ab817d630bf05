/** State types by their ASL `Type`. */
import { choiceState } from "./choice";
import { failState } from "./fail";
import { mapState } from "./map";
import { parallelState } from "./parallel";
import { passState } from "./pass";
import { succeedState } from "./succeed";
import { taskState } from "./task";
import type { StateType } from "./types";
import { waitState } from "./wait";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const STATE_TYPES: Record<string, StateType<any>> = {
  Pass: passState,
  Task: taskState,
  Choice: choiceState,
  Wait: waitState,
  Succeed: succeedState,
  Fail: failState,
  Map: mapState,
  Parallel: parallelState,
};
