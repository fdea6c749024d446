/*
 * Building and freeing struct emu_program, the compilers' output and the
 * emulator's input (see emu.h for the binding contract).
 */
#include "emu/emu.h"

#include <stdlib.h>

void
emu_program_bind(struct emu_program *p, const struct emu_binding *b)
{
   VEC_PUSH(p->binds, p->nbinds, p->binds_cap, *b);
}

void
emu_program_free(struct emu_program *p)
{
   free(p->code);
   free(p->binds);
   memset(p, 0, sizeof(*p));
}
