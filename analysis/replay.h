/* replay.h - the model replays the recorded run before anything is
 * predicted from it (docs/model.md, "Replay before predicting").
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_REPLAY_H
#define PERFPRED_REPLAY_H

#include <stddef.h>
#include "machine.h"
#include "model.h"

/* Walk the model at the recorded parameters and P (on mach, or the
 * built-in default machine when NULL).  -1 with the reason in err when
 * it hangs there although the run completed, or when a loop's count
 * there differs from the run's ("the model does not reproduce the run:
 * ..."); 0 otherwise.  The parameters are left as they were. */
int pp_replay_check(pp_prog *m, const pp_machine *mach, char *err, size_t errlen);

#endif
