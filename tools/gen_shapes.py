#!/usr/bin/env python3
"""Counts the generated shaders (`diffcomp gen --seed 1..N`) that hold each
shape the README's generator section lists, by patterns in their text.

    tools/gen_shapes.py [--diffcomp build/diffcomp] [-n 1000]

Prints a Markdown table (shape, shaders per N). Shapes that no text
pattern tells apart (pressure, the workgroup counter, the neighbour
exchange, the sink's boolean tests) are not counted.
"""
import argparse
import re
import subprocess
import sys

DOUBLE_OPS = set(
    "F2D I2D U2D D2F D2I D2U DADD DMUL DFMA DDIV DSQRT DRCP DLDEXP DMIN DMAX DSLT DSGE "
    "DSEQ DSNE DABS DNEG DMAD DFRACEXP DRSQ DTRUNC DFLR DCEIL DROUND DSSG D2I64 D2U64 "
    "I642D U642D".split())
VOTES = {"VOTE_ANY", "VOTE_ALL", "VOTE_EQ", "BALLOT", "READ_FIRST"}


def exits_in_both_arms(ops):
    """An if/else whose arms both hold work and end in a jump, or one ends
    in a CONT: `{a; CONT} ELSE {b; BRK}`."""
    stack = []
    for op in ops:
        if op in ("IF", "UIF"):
            stack.append([[]])
        elif op == "ELSE" and stack:
            stack[-1].append([])
        elif op == "ENDIF" and stack:
            arms = stack.pop()
            if len(arms) == 2 and all(len(a) > 1 for a in arms):
                ends = [a[-1] for a in arms]
                jumps = [e in ("BRK", "CONT") for e in ends]
                if any(jumps) and ("CONT" in ends or all(jumps)):
                    return True
            if stack:
                stack[-1][-1].append("IF")
        elif stack:
            stack[-1][-1].append(op)
    return False


def shapes(text):
    lines = [l.strip() for l in text.split("\n") if l.strip() and not l.startswith("#")]
    ops = [l.split()[0] for l in lines]
    opset = set(ops)
    comp = lines[0] == "COMP"
    slot = "BUFFER[2]" if comp else "BUFFER[0]"  # the lanes' own words (gen_mem.c)
    r = {}
    r["64-bit integer ops"] = any(
        re.match(r"^(U64|I64)", o) or o.endswith(("2I64", "2U64")) or o in ("I642F", "U642F")
        for o in opset)
    r["lane-owned buffer slot (store/load)"] = any(l.startswith("STORE " + slot) for l in lines)
    r["per-lane trip count"] = any(
        re.match(r"USGE TEMP\[(\d+)\]\.y, TEMP\[\1\]\.xxxx, TEMP\[\1\]\.zzzz", l) for l in lines)
    neg = False
    for a, b in zip(lines, lines[1:]):
        m = re.match(r"(NOT|SEQ) TEMP\[(\d+)\]\.x, TEMP\[\2\]\.xxxx", a)
        neg |= bool(m and re.match(r"U?IF TEMP\[%s\]\.xxxx" % m.group(2), b))
    r["negated condition (NOT / SEQ 0) before an IF/UIF"] = neg
    r["shared memory + BARRIER"] = "BARRIER" in opset and any(
        l.startswith("DCL") and "MEMORY" in l for l in lines)
    r["IF {..} ELSE {BRK} in a loop body"] = any(
        ops[i:i + 3] == ["ELSE", "BRK", "ENDIF"] for i in range(len(ops)))
    r["IF {BRK} ELSE {..} in a loop body"] = any(
        ops[i] in ("IF", "UIF") and ops[i + 1:i + 3] == ["BRK", "ELSE"] for i in range(len(ops)))
    r["exits in both arms: work, then BRK/CONT in each"] = exits_in_both_arms(ops)
    r["image texel store/load"] = any(
        l.startswith("STORE IMAGE") or re.match(r"LOAD \S+, IMAGE", l) for l in lines)
    r["FS stores right before and after KILL_IF"] = any(
        ops[i - 1:i + 2] == ["STORE", "KILL_IF", "STORE"] for i in range(1, len(ops)))
    depth, cont = 0, False
    for o in ops:
        depth += (o == "SWITCH") - (o == "ENDSWITCH")
        cont |= o == "CONT" and depth > 0
    r["CONT inside a SWITCH in a loop"] = cont
    r["doubles"] = bool(opset & DOUBLE_OPS)
    r["atomic on an own buffer word"] = any(
        re.match(r"ATOM\w+ \S+, " + re.escape(slot), l) for l in lines)
    r["subgroup vote/ballot under a lane-dependent UIF, in the sink"] = bool(opset & VOTES)
    r["TXD with immediate power-of-two gradients"] = "TXD" in opset
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--diffcomp", default="build/diffcomp")
    ap.add_argument("-n", type=int, default=1000)
    a = ap.parse_args()
    counts = {}
    for seed in range(1, a.n + 1):
        p = subprocess.run([a.diffcomp, "gen", "--seed", str(seed)], capture_output=True, text=True)
        if p.returncode:
            sys.exit("gen --seed %d failed: %s" % (seed, p.stderr.strip()))
        for k, v in shapes(p.stdout).items():
            counts[k] = counts.get(k, 0) + bool(v)
    print("| shape | per %d |\n|---|---|" % a.n)
    for k, v in sorted(counts.items(), key=lambda kv: -kv[1]):
        print("| %s | %d |" % (k, v))


if __name__ == "__main__":
    main()
