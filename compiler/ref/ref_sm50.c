/*
 * Reference target for the NVIDIA Maxwell (sm50) model: not written yet.
 */
#include "compiler/ref/ref.h"

static bool
sm_init(struct ref_ctx *c)
{
   ref_unsupported(c, "the sm50 reference expansion is not written yet");
   return false;
}

const struct ref_target ref_target_sm50 = {
    .model = "sm50",
    .init = sm_init,
};
