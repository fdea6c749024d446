/*
 * The table of special operand values (sem.h): what a rewrite, a fold or
 * an implementation must get right at the edges. Ordered by kind; a value
 * special for two kinds (0x80000000 is -0.0 and INT_MIN, 0xffffffff is a
 * NaN and -1) says so once.
 */
#include "isa/sem.h"

#define F  SEM_SPK_F32
#define I  SEM_SPK_I32
#define SH SEM_SPK_SHIFT
#define B  SEM_SPK_BOOL
#define D  SEM_SPK_F64
#define L  SEM_SPK_I64

const struct sem_special sem_specials[] = {
    /* 32-bit floats (and the integers their bits are) */
    {0x00000000u, F | I | SH | B, "+0"},
    {0x80000000u, F | I, "-0.0 / INT_MIN"},
    {0x3f800000u, F | I, "1.0 / 0x3f800000"},
    {0xbf800000u, F, "-1.0"},
    {0x3f000000u, F, "0.5"},
    {0xbfc00000u, F, "-1.5"},
    {0x40200000u, F, "2.5"},
    {0x40400000u, F, "3.0"},
    {0x7f800000u, F, "+inf"},
    {0xff800000u, F, "-inf"},
    {0x7fc00000u, F, "NaN"},
    {0xffc00001u, F, "-NaN (payload)"},
    {0x7f800001u, F, "sNaN"},
    {0x00000001u, F | I | SH | B, "denormal min / 1"},
    {0x807fffffu, F, "-denormal max"},
    {0x00800000u, F, "FLT_MIN"},
    {0x7f7fffffu, F, "FLT_MAX"},
    {0xff7fffffu, F, "-FLT_MAX"},
    {0x4b800001u, F, "2^24 + 2 (odd ulp)"},
    /* 32-bit integers */
    {0xffffffffu, I | SH | B, "-1 / ~0"},
    {0x00000002u, I, "2"},
    {0x7fffffffu, I, "INT_MAX"},
    {0x80000001u, I, "INT_MIN + 1"},
    {0xfffffffeu, I, "-2"},
    {0x0000001fu, I | SH, "31"},
    {0x00000020u, I | SH, "32"},
    {0x00000021u, I | SH, "33"},
    {0x0000ffffu, I, "0xffff"},
    {0x00010000u, I, "0x10000"},
    {0x00000010u, SH, "16"},
    {0x0000003fu, SH, "63"},
    /* 64-bit doubles */
    {0x0000000000000000ull, D | L, "+0"},
    {0x8000000000000000ull, D | L, "-0.0 / INT64_MIN"},
    {0x3ff0000000000000ull, D, "1.0"},
    {0xbff0000000000000ull, D, "-1.0"},
    {0x3fe0000000000000ull, D, "0.5"},
    {0xc004000000000000ull, D, "-2.5"},
    {0x7ff0000000000000ull, D, "+inf"},
    {0xfff0000000000000ull, D, "-inf"},
    {0x7ff8000000000000ull, D, "NaN"},
    {0x0000000000000001ull, D | L, "denormal min / 1"},
    {0x0010000000000000ull, D, "DBL_MIN"},
    {0x7fefffffffffffffull, D, "DBL_MAX"},
    /* 64-bit integers */
    {0xffffffffffffffffull, L, "-1"},
    {0x7fffffffffffffffull, L, "INT64_MAX"},
    {0x00000000ffffffffull, L, "2^32 - 1"},
    {0x0000000100000000ull, L, "2^32"},
    {0x0000000080000000ull, L, "2^31"},
    {0xffffffff80000000ull, L, "-2^31"},
};

const unsigned sem_nspecials = sizeof(sem_specials) / sizeof(sem_specials[0]);
