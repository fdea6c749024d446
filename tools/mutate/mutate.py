#!/usr/bin/env python3
"""Mutation testing of diffcomp's optimizing compiler: how many planted bugs
does the check catch?

Each mutant is one mechanical change to one source file (an operator swapped,
a constant off by one, a statement or condition deleted, two arguments
swapped, & for &&). The harness compiles the mutated file alone into a scratch
directory with the flags of an existing build (compile_commands.json), links a
scratch diffcomp from that build's objects with the one mutated object first,
runs the check with it and classifies the mutant by the signals of the cases
that newly fail. The working tree and the build directory are only read.

The sample is deterministic: mutants are enumerated in a fixed order (files
sorted, then by position and operator) and a seeded SplitMix64 shuffle picks
--sample of them, so the same seed names the same mutants on any machine.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

DEFAULT_FILES = ["compiler/opt/*.c", "isa/delay.c", "isa/codec.c"]
# Files of compiler/opt that are not the optimizer the check tests.
SKIP_FILES = {
    "compiler/opt/fault.c": "the fault registry: names only",
    "compiler/opt/opt_verify.c": "the per-rewrite verifier: a detector, not a transformation",
    "compiler/opt/conservative.c": "bisect's conservative variants: the check never runs them",
}
# Files used outside opt_compile (the emulator, the reference compiler, the
# check's applicability): their mutants run the check without the program
# filter.
DIRECT = {"isa/delay.c", "isa/codec.c", "compiler/opt/opt_targets.c"}
# The check's own code in tools/ (with the libraries, what reach depends on).
CHECK_TOOLS = ["cmd_check.c", "inputs.c", "main.c", "tools.h"]
# The optimizer's modes: default, and each inexact transform check --opt allows.
MODES = ["default", "fuse-ffma", "inexact"]
OPS = ["rel", "arith", "const", "del-stmt", "del-cond", "neg-cond", "swap-args", "logic"]
# Kill signals, the runtime ones first; the first present names the kill.
RUNTIME = ["mismatch", "hazard", "illegal-encoding", "emu-error", "timeout", "crash",
           "invariance", "nothing-compared", "hang"]
STATIC = ["compile-error", "opt-refused"]

# ---------------------------------------------------------------------------
# Deterministic sampling


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, z ^ (z >> 31)


def generated_seeds(check_seed, n):
    """The seeds of check --generated N's shaders (gen:S): util/rng.c's
    xoshiro256** seeded through splitmix64, first N draws mod 10^9."""
    M = 0xFFFFFFFFFFFFFFFF
    st, s = check_seed & M, []
    for _ in range(4):
        st, z = splitmix64(st)
        s.append(z)
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M
    out = []
    for _ in range(n):
        out.append(rotl(s[1] * 5 & M, 7) * 9 & M)
        t = s[1] << 17 & M
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
    return [r % 1000000000 for r in out]


def sample(n_total, k, seed):
    idx = list(range(n_total))
    st = seed & 0xFFFFFFFFFFFFFFFF
    for i in range(min(k, n_total)):
        st, r = splitmix64(st)
        j = i + r % (n_total - i)
        idx[i], idx[j] = idx[j], idx[i]
    return idx[:min(k, n_total)]  # in draw order: a time-limited run is a sample too


# ---------------------------------------------------------------------------
# Reading C: a mask with comments, strings, characters and preprocessor lines
# blanked, so that the operators below only see code.


def mask_c(src):
    out = list(src)
    i, n = 0, len(src)
    at_line_start = True
    while i < n:
        c = src[i]
        if at_line_start and c == "#":
            j = i
            while j < n:  # the directive with its continuation lines
                if src[j] == "\n" and src[j - 1] != "\\":
                    break
                j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def function_bodies(m):
    """(start, end) of every top-level brace block that follows a ')'."""
    spans, depth, start = [], 0, None
    for i, c in enumerate(m):
        if c == "{":
            if depth == 0:
                j = i - 1
                while j >= 0 and m[j].isspace():
                    j -= 1
                start = i if j >= 0 and m[j] == ")" else None
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and start is not None:
                spans.append((start, i))
                start = None
    return spans


def matching_paren(m, i):
    """Index of the ')' closing the '(' at i, or -1."""
    depth = 0
    for j in range(i, len(m)):
        if m[j] == "(":
            depth += 1
        elif m[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def top_level_split(m, a, b, seps):
    """Split m[a:b] at the separators in seps outside parentheses: a list of
    (start, end) spans and the separators between them."""
    parts, seps_found, depth, s, i = [], [], 0, a, a
    while i < b:
        c = m[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0:
            for sep in seps:
                if m.startswith(sep, i):
                    parts.append((s, i))
                    seps_found.append(sep)
                    s = i + len(sep)
                    i = s - 1
                    break
        i += 1
    parts.append((s, b))
    return parts, seps_found


# ---------------------------------------------------------------------------
# Mutation operators. Each yields (start, end, replacement, description).

BINARY = re.compile(r"(?<= )(<<=|>>=|<=|>=|==|!=|<<|>>|\+=|-=|&&|\|\||[-+*/%<>&|])(?= )")
REL_SWAP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
ARITH_SWAP = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*", "<<": ">>", ">>": "<<",
              "+=": "-=", "-=": "+=", "<<=": ">>=", ">>=": "<<="}
# && as & on two booleans changes nothing: the logical operators swap instead.
LOGIC_SWAP = {"&&": "||", "||": "&&", "&": "|", "|": "&"}
INT_LIT = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)(?![\w.])")
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "_Static_assert", "defined",
            "assert", "_Alignof", "alignof"}
COND = re.compile(r"\b(if|while)\s*\(")
DECL_START = re.compile(
    r"^(struct|enum|union|const|static|unsigned|signed|int|char|bool|float|double|void|"
    r"uint\d+_t|int\d+_t|size_t|long|short|[A-Za-z_]\w*\s+\**[A-Za-z_]\w*\s*(=|;|\[|,))")


def op_rel(src, m, body):
    for mt in BINARY.finditer(m, *body):
        t = mt.group(1)
        if t in REL_SWAP:
            yield mt.start(1), mt.end(1), REL_SWAP[t], f"'{t}' -> '{REL_SWAP[t]}'"


def op_arith(src, m, body):
    for mt in BINARY.finditer(m, *body):
        t = mt.group(1)
        if t in ARITH_SWAP:
            yield mt.start(1), mt.end(1), ARITH_SWAP[t], f"'{t}' -> '{ARITH_SWAP[t]}'"


def op_logic(src, m, body):
    for mt in BINARY.finditer(m, *body):
        t = mt.group(1)
        if t in LOGIC_SWAP:
            yield mt.start(1), mt.end(1), LOGIC_SWAP[t], f"'{t}' -> '{LOGIC_SWAP[t]}'"


def op_const(src, m, body):
    for mt in INT_LIT.finditer(m, *body):
        text, suffix = mt.group(1), mt.group(2)
        v = int(text, 0)
        fmt = (lambda x: hex(x)) if text.lower().startswith("0x") else str
        for d in (1, -1):
            if v + d < 0:
                continue
            yield mt.start(), mt.end(), fmt(v + d) + suffix, f"{text}{suffix} -> {fmt(v + d)}{suffix}"


def statement_lines(src, m, body):
    """Single-line statements of a body: (start, end) of the text to ';'."""
    a, b = body
    line_start = m.rfind("\n", 0, a) + 1
    pos = line_start
    while pos < b:
        end = m.find("\n", pos)
        end = b if end < 0 or end > b else end
        code = m[pos:end]
        s = code.strip()
        if s.endswith(";") and pos > a and s.count("(") == s.count(")"):
            prev = m[:pos].rstrip()
            if prev and prev[-1] in ";{}:" or (prev.endswith(")") and not prev.endswith("));")):
                lead = len(code) - len(code.lstrip())
                yield pos + lead, pos + len(code.rstrip()), s
        pos = end + 1


def op_del_stmt(src, m, body):
    for s, e, text in statement_lines(src, m, body):
        if DECL_START.match(text) or text.startswith(("return", "goto", "case ", "default")):
            continue
        if "assert" in text or text in (";",):
            continue
        yield s, e, ";", f"delete '{text}'"


def cond_span(m, mt):
    o = mt.end() - 1
    c = matching_paren(m, o)
    return (o + 1, c) if c > 0 else None


def op_del_cond(src, m, body):
    for mt in COND.finditer(m, *body):
        span = cond_span(m, mt)
        if not span:
            continue
        parts, seps = top_level_split(m, span[0], span[1], ["&&", "||"])
        if len(parts) < 2:
            if mt.group(1) == "if":
                text = src[span[0]:span[1]].strip()
                yield span[0], span[1], "1", f"if ({text}) -> if (1)"
            continue
        for k, (ps, pe) in enumerate(parts):
            # drop the operand with the operator that joins it
            if k == 0:
                s, e = ps, parts[1][0]
            else:
                s, e = parts[k - 1][1], pe
            text = src[ps:pe].strip()
            yield s, e, " " if k else "", f"drop '{seps[max(k - 1, 0)]} {text}'"


def op_neg_cond(src, m, body):
    for mt in COND.finditer(m, *body):
        span = cond_span(m, mt)
        if span:
            text = src[span[0]:span[1]]
            yield span[0], span[1], f"!({text})", f"negate ({text.strip()})"


def op_swap_args(src, m, body):
    for mt in CALL.finditer(m, *body):
        if mt.group(1) in KEYWORDS or "assert" in mt.group(1):
            continue
        o = mt.end() - 1
        c = matching_paren(m, o)
        if c < 0:
            continue
        parts, _ = top_level_split(m, o + 1, c, [","])
        for k in range(len(parts) - 1):
            (a0, a1), (b0, b1) = parts[k], parts[k + 1]
            x, y = src[a0:a1].strip(), src[b0:b1].strip()
            if not x or not y or x == y or '"' in x + y:
                continue
            lead_a = len(src[a0:a1]) - len(src[a0:a1].lstrip())
            lead_b = len(src[b0:b1]) - len(src[b0:b1].lstrip())
            new = src[a0:a0 + lead_a] + y + src[a1 - (len(src[a0:a1]) - len(src[a0:a1].rstrip())):a1]
            new += "," + src[b0:b0 + lead_b] + x
            new += src[b1 - (len(src[b0:b1]) - len(src[b0:b1].rstrip())):b1]
            yield a0, b1, new, f"{mt.group(1)}: swap '{x}' and '{y}'"


OPERATORS = {"rel": op_rel, "arith": op_arith, "const": op_const, "del-stmt": op_del_stmt,
             "del-cond": op_del_cond, "neg-cond": op_neg_cond, "swap-args": op_swap_args,
             "logic": op_logic}


def enumerate_mutants(root, files, ops):
    out = []
    for rel in files:
        src = open(os.path.join(root, rel), encoding="utf-8").read()
        lines = src.split("\n")
        m = mask_c(src)
        skip_lines = {i for i, line in enumerate(src.split("\n"), 1) if "assert(" in line}
        for body in function_bodies(m):
            found = []
            for op in ops:
                for s, e, rep, desc in OPERATORS[op](src, m, body):
                    line = src.count("\n", 0, s) + 1
                    if line not in skip_lines:
                        desc = " ".join(desc.split())
                        desc = desc if len(desc) <= 100 else desc[:97] + "..."
                        found.append((s, op, e, rep, desc, line))
            found.sort()
            for s, op, e, rep, desc, line in found:
                out.append({"file": rel, "start": s, "end": e, "rep": rep, "op": op,
                            "desc": desc, "line": line, "text": lines[line - 1].strip()})
    for i, mu in enumerate(out):
        mu["id"] = i
    return out


def apply(src, mu):
    return src[:mu["start"]] + mu["rep"] + src[mu["end"]:]


# ---------------------------------------------------------------------------
# Building a mutant: one object compiled, one binary linked


class Builder:
    def __init__(self, root, build, scratch):
        self.root, self.build, self.scratch = root, os.path.abspath(build), scratch
        cc = os.path.join(self.build, "compile_commands.json")
        link = os.path.join(self.build, "CMakeFiles", "diffcomp.dir", "link.txt")
        if not os.path.exists(cc) or not os.path.exists(link):
            sys.exit(f"mutate: {build}: no compile_commands.json or diffcomp link.txt: "
                     "configure and build it first (cmake -B build && cmake --build build)")
        self.cmds = {}
        for e in json.load(open(cc)):
            args = e.get("arguments") or shlex.split(e["command"])
            self.cmds[os.path.realpath(e["file"])] = (e["directory"], args)
        self.link = shlex.split(open(link).read())
        self.exe = os.path.join(scratch, "diffcomp")

    def compile(self, rel, text):
        path = os.path.realpath(os.path.join(self.root, rel))
        if path not in self.cmds:
            return False, f"{rel}: not in compile_commands.json"
        cwd, args = self.cmds[path]
        mfile = os.path.join(self.scratch, "src", rel)
        os.makedirs(os.path.dirname(mfile), exist_ok=True)
        with open(mfile, "w", encoding="utf-8") as f:
            f.write(text)
        obj = os.path.join(self.scratch, "mutant.o")
        out, skip = [], 0
        for i, a in enumerate(args):
            if skip:
                skip -= 1
                continue
            if a in ("-MT", "-MF", "-MQ"):
                skip = 1
            elif a in ("-MD", "-MMD", "-Werror") or a.startswith("-g"):
                pass
            elif a == "-o":
                out += ["-o", obj]
                skip = 1
            elif os.path.realpath(os.path.join(cwd, a)) == path:
                out.append(mfile)
            else:
                out.append(a)
        out.insert(1, "-iquote" + os.path.dirname(path))
        # what ISO C refuses (a constraint violation: arguments swapped
        # across pointer types, an int passed as a pointer) is no program
        # that could land: a build failure, not a mutant that compiles only
        # because -Werror was dropped (the tree builds with it)
        out.insert(1, "-pedantic-errors")
        # so is a read of a variable no path has written (a deleted call
        # that filled it): the tree's -Werror refuses it, and what it
        # computes is whatever the stack held
        out.insert(1, "-Werror=uninitialized")
        r = subprocess.run(out, cwd=cwd, capture_output=True, text=True)
        if r.returncode:
            return False, (r.stderr.strip().split("\n") or [""])[0]
        args = list(self.link)
        i = args.index("-o")
        args[i + 1] = self.exe
        lib = next(k for k, a in enumerate(args) if a.endswith("libdccore.a"))
        args.insert(lib, obj)  # its symbols win: the archive's copy is never pulled
        r = subprocess.run(args, cwd=self.build, capture_output=True, text=True)
        if r.returncode:
            return False, "link: " + (r.stderr.strip().split("\n") or [""])[0]
        return True, ""


# ---------------------------------------------------------------------------
# Reach: which lines the unmutated check executes, per mode (a gcov build)


class Reach:
    """Which shaders execute which lines of the mutated files, per mode: a
    --coverage build of diffcomp runs the unmutated check in process (-j 0:
    workers leave with _exit and would drop their counts) on one group of
    --reach-group shaders at a time, and gcov reads the counts after each.
    A mutant then runs only in the modes, and on the shaders, that execute
    its line: the others run exactly as unmutated (the check is
    deterministic and a shader's inputs depend on its text and the seed
    only), so they cannot kill it."""

    def __init__(self, root, covbuild, a, shaders, files, modes):
        self.root, self.dir = root, os.path.abspath(covbuild)
        self.a, self.shaders, self.files, self.modes = a, shaders, files, modes
        self.groups = [shaders[i:i + a.reach_group] for i in range(0, len(shaders), a.reach_group)]
        self.lines = {}  # mode -> file -> {line: bit mask of the groups that run it}
        self.code = {}  # file -> lines that hold code

    def key(self):
        h = hashlib.sha1()
        srcs = [f for pat in ("util", "isa", "emu", "compiler", "diff")
                for f in sorted(glob.glob(os.path.join(self.root, pat, "**", "*.[ch]"),
                                          recursive=True))]
        srcs += [os.path.join(self.root, "tools", f) for f in CHECK_TOOLS]
        for f in srcs:
            h.update(os.path.relpath(f, self.root).encode())
            h.update(open(f, "rb").read())
        for f in sorted(glob.glob(os.path.join(self.root, "isa", "models", "*.yaml"))):
            h.update(open(f, "rb").read())
        for f in self.shaders:
            h.update(os.path.basename(f).encode())
            h.update(open(f, "rb").read())
        h.update(json.dumps([self.files, self.modes, self.a.reach_group,
                             check_args(self.a, [], None, None, None)]).encode())
        return h.hexdigest()

    def load(self, log):
        cache = os.path.join(self.dir, "mutate-reach.json")
        key = self.key()
        try:
            d = json.load(open(cache))
            if d.get("key") == key:
                self.lines = {m: {f: {int(k): v for k, v in ls.items()} for f, ls in fs.items()}
                              for m, fs in d["lines"].items()}
                self.code = {f: set(ls) for f, ls in d["code"].items()}
                log(f"reach: {cache} (cached)")
                return
        except (OSError, ValueError, KeyError):
            pass
        self.build(log)
        objs = []
        for rel in self.files:
            o = glob.glob(os.path.join(self.dir, "CMakeFiles", "*", rel + ".o"))
            if not o:
                sys.exit(f"mutate: {rel}: no object in {self.dir}")
            objs.append(o[0])
        self.code = {f: set(ls) for f, ls in self.gcov(objs, code=True).items()}
        for mode in self.modes:
            t = time.time()
            self.lines[mode] = {f: {} for f in self.files}
            for gi, group in enumerate(self.groups):
                for g in glob.glob(os.path.join(self.dir, "**", "*.gcda"), recursive=True):
                    os.unlink(g)
                args = check_args(self.a, group, None, None, mode)
                args[args.index("-j") + 1] = "0"
                r = subprocess.run([os.path.join(self.dir, "diffcomp"), *args],
                                   capture_output=True, text=True)
                if r.returncode not in (0, 1):
                    sys.exit(f"mutate: the coverage build's check failed (exit {r.returncode}):"
                             "\n" + r.stderr[-2000:])
                for rel, ls in self.gcov(objs).items():
                    for no in ls:
                        self.lines[mode][rel][no] = self.lines[mode][rel].get(no, 0) | 1 << gi
            log(f"reach: mode {mode}: {len(self.groups)} groups, {time.time() - t:.0f} s")
        with open(cache + ".tmp", "w") as f:
            json.dump({"key": key, "lines": self.lines,
                       "code": {f: sorted(ls) for f, ls in self.code.items()}}, f)
        os.replace(cache + ".tmp", cache)

    def build(self, log):
        if not os.path.exists(os.path.join(self.dir, "CMakeCache.txt")):
            log(f"reach: configuring {self.dir} (gcc --coverage -O0)")
            r = subprocess.run(["cmake", "-B", self.dir, "-DCMAKE_BUILD_TYPE=Debug",
                                "-DCMAKE_C_COMPILER=gcc", "-DCMAKE_C_FLAGS=--coverage -O0"],
                               cwd=self.root, capture_output=True, text=True)
            if r.returncode:
                sys.exit("mutate: cannot configure the coverage build:\n" + r.stderr[-2000:])
        r = subprocess.run(["cmake", "--build", self.dir, "-j2", "--target", "diffcomp"],
                           cwd=self.root, capture_output=True, text=True)
        if r.returncode:
            sys.exit("mutate: cannot build the coverage build:\n" + r.stdout[-2000:])

    def gcov(self, objs, code=False):
        """{file: [executed lines]} of the mutated files after one run; with
        code, every line that holds code, executed or not."""
        srcs = {os.path.realpath(os.path.join(self.root, f)): f for f in self.files}
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run(["gcov", "-t", *objs], cwd=tmp, capture_output=True, text=True)
        out, mine = {}, None
        for ln in r.stdout.split("\n"):
            parts = ln.split(":", 2)
            if len(parts) < 3:
                continue
            cnt, no = parts[0].strip(), parts[1].strip()
            if no == "0":
                if parts[2].startswith("Source:"):
                    mine = srcs.get(os.path.realpath(parts[2][7:]))
                continue
            if mine and cnt != "-" and (code or cnt not in ("#####", "=====")):
                out.setdefault(mine, []).append(int(no))
        return out

    def where(self, rel, line):
        """{mode: shaders} that execute the mutated line (or the nearest line
        above it that holds code: a continuation line holds none)."""
        out = {}
        for mode in self.modes:
            ls = self.lines[mode].get(rel, {})
            src_lines = self.code.get(rel, ())
            for no in range(line, max(line - 40, 0), -1):
                if no in ls or no in src_lines:
                    mask = ls.get(no, 0)
                    if mask:
                        out[mode] = [s for gi, g in enumerate(self.groups) if mask >> gi & 1
                                     for s in g]
                    break
        return out


# ---------------------------------------------------------------------------
# Running the check on a binary and classifying


def check_args(a, files, baseline, jsonf, mode, targets=None):
    args = ["check", *files, "--no-repro", "-q", "-j", str(a.jobs), "--timeout", str(a.timeout),
            "--seed", str(a.check_seed), "--target", targets or a.target]
    if jsonf:
        args += ["--json", jsonf]
    if mode and mode != "default":
        args += ["--opt", mode]
    if a.invocations:
        args += ["--invocations", str(a.invocations)]
    if a.no_verify:
        args += ["--no-verify"]
    if baseline:
        args += ["--baseline", baseline, "--max-failures", str(a.max_failures)]
    return args


def run_check(exe, a, files, baseline, jsonf, wall, mode, targets=None, compiled=None):
    """The mutant's new failures by signal kind. compiled: the unmutated
    digests, to see a refusal the check reports as n/a (a partial target's
    opt-not-applicable) where the unmutated build compiled the shader: the
    check shows it (status n/a for pass), the baseline cannot (it lists
    failures), so it counts as opt-refused."""
    t = time.time()
    try:
        r = subprocess.run([exe, *check_args(a, files, baseline, jsonf, mode, targets)],
                           capture_output=True, text=True, timeout=wall)
    except subprocess.TimeoutExpired:
        return {"rc": None, "kinds": ["hang"], "cases": 0, "seconds": time.time() - t}
    kinds, cases = {}, 0
    try:
        d = json.load(open(jsonf))
        os.unlink(jsonf)
    except (OSError, ValueError):
        d = {"cases": []}
    for c in d["cases"]:
        if c.get("outcome") in ("new-failure", "new-error"):
            cases += 1
            for s in c.get("signals", []):
                kinds[s["kind"]] = kinds.get(s["kind"], 0) + 1
        elif (compiled and c.get("status") == "n/a" and
              any(s.get("kind") == "opt-not-applicable" for s in c.get("signals", [])) and
              compiled.get((c.get("shader"), c.get("target")), "refused") != "refused"):
            cases += 1
            kinds["opt-refused"] = kinds.get("opt-refused", 0) + 1
    if r.returncode not in (0, 1) and not kinds:
        kinds["check-exit-%d" % r.returncode] = 1
    return {"rc": r.returncode, "kinds": sorted(kinds), "cases": cases,
            "seconds": time.time() - t}


def kill_signal(kinds):
    for k in RUNTIME + STATIC:
        if k in kinds:
            return k
    return kinds[0] if kinds else None


def digests(exe, a, files, mode, wall):
    """{(shader, target): digest} of opt's programs (compile --digest), or
    None when the run dies (a mutant's crash: the check sorts it), or
    "hang" past wall seconds."""
    args = [exe, "compile", "--digest", "--path", "opt", "--target", a.target, *files]
    if mode != "default":
        args += ["--opt", mode]
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=wall)
    except subprocess.TimeoutExpired:
        return "hang"
    out = {}
    for ln in r.stdout.split("\n"):
        f = ln.rsplit(" ", 3)
        if len(f) == 4:
            out[(f[0], f[1])] = f[3]
    n = len(files) * len(a.target.split(","))
    return out if r.returncode == 0 and len(out) == n else None


def changed_cases(exe, a, files, mode, unmutated, wall):
    """The shaders (and targets) whose opt program the mutant changes in
    this mode: the only cases that can fail (the others compile to the same
    programs and run the same). None: run them all."""
    d = digests(exe, a, files, mode, wall)
    if d is None or d == "hang":
        return d
    ch = [k for k, v in d.items() if unmutated.get(k) != v]
    shaders = [f for f in files if any(k[0] == f for k in ch)]
    targets = [t for t in a.target.split(",") if any(k[1] == t for k in ch)]
    return shaders, ",".join(targets)


def programs(exe, files, targets, modes):
    """Every program both compilers emit for the files: the equivalence key."""
    out = []
    for f in files:
        for t in targets:
            for path, mode in [("ref", "default")] + [("opt", m) for m in modes]:
                extra = ["--opt", mode] if mode != "default" else []
                r = subprocess.run([exe, "compile", f, "--target", t, "--path", path, *extra],
                                   capture_output=True, text=True)
                out.append((r.returncode, r.stdout))
    return out


# ---------------------------------------------------------------------------


def parse_args():
    p = argparse.ArgumentParser(
        prog="tools/mutate/mutate.py",
        description="Mutation testing: plant one mechanical bug at a time in the optimizing "
        "compiler and count how many the check catches.")
    p.add_argument("shaders", nargs="*", help="TGSI files to check (default captures/*.tgsi)")
    p.add_argument("--build", default="build", help="a configured, built build directory")
    p.add_argument("--files", nargs="+", metavar="GLOB",
                   help="source files to mutate (default " + " ".join(DEFAULT_FILES) + ")")
    p.add_argument("--ops", default=",".join(OPS), help="operators (default: all): " + ",".join(OPS))
    p.add_argument("--sample", type=int, default=0, help="check N mutants chosen by --seed (0: all)")
    p.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    p.add_argument("--mutant", type=int, nargs="+", metavar="ID", help="check these mutants only")
    p.add_argument("--plant", nargs=3, metavar=("FILE", "OLD", "NEW"),
                   help="check one hand-written mutant instead: FILE with the text OLD "
                   "(found exactly once) replaced by NEW")
    p.add_argument("--list", action="store_true", help="list the mutants (sampled) and stop")
    p.add_argument("--show", type=int, metavar="ID", help="print one mutant's changed line and stop")
    p.add_argument("--generated", type=int, default=0, help="also check N generated shaders")
    p.add_argument("--check-seed", type=int, default=1, help="the check's --seed (default 1)")
    p.add_argument("--invocations", type=int, default=0, help="the check's --invocations")
    p.add_argument("--target", default="a3xx,sm50,gfx9,agx",
                   help="targets (default a3xx,sm50,gfx9,agx)")
    p.add_argument("--modes", default=",".join(MODES),
                   help="the optimizer's modes to check, in order: default (no --opt) or a "
                   "check --opt value (default " + ",".join(MODES) + ")")
    p.add_argument("--no-gen-sink", action="store_true",
                   help="generated shaders with gen --no-sink (by default they end with edge "
                   "shapes and hashes of every value in an extra output)")
    p.add_argument("--no-verify", action="store_true",
                   help="the check's --no-verify: a mutant the per-rewrite verifier would stop "
                   "at compile time runs, so only a runtime signal or the IR validator kills it")
    p.add_argument("--runtime-build", metavar="DIR",
                   help="a build configured with -DDIFFCOMP_VALIDATE=OFF: every mutant killed "
                   "at compile time runs again there with --no-verify, and the summary gives "
                   "the runtime rate with the validator and the verifier off too")
    p.add_argument("-j", "--jobs", type=int, default=2, help="the check's workers (default 2)")
    p.add_argument("--timeout", type=int, default=30,
                   help="seconds per case before the check calls it a timeout (default 30)")
    p.add_argument("--max-failures", type=int, default=4, metavar="N",
                   help="a mutant's check stops after N new failures (default 4)")
    p.add_argument("--cov-build", default="build-cov", metavar="DIR",
                   help="the gcov build that finds unreached mutants (default build-cov; "
                   "configured and built when missing)")
    p.add_argument("--reach-group", type=int, default=4, metavar="N",
                   help="shaders per coverage run (default 4): a mutant runs on the groups "
                   "that reach its line")
    p.add_argument("--reach-only", action="store_true",
                   help="classify the chosen mutants as reached or unreached per file, run none")
    p.add_argument("--no-reach", action="store_true",
                   help="no coverage build: run every mutant in every mode")
    p.add_argument("--no-digest", action="store_true",
                   help="run the check on every reaching shader, not only those whose opt "
                   "program the mutant changes")
    p.add_argument("--equiv", action="store_true",
                   help="compare survivors' programs to flag likely-equivalent ones (slow)")
    p.add_argument("--json", metavar="FILE", help="write every mutant's result as JSON")
    p.add_argument("--resume", action="store_true",
                   help="with --json FILE: skip the mutants FILE already holds (an earlier "
                   "chunk), count them in the summary, and rewrite FILE after each mutant")
    p.add_argument("--rerun", metavar="FILE",
                   help="run the mutants of an earlier --json FILE again (found by file, "
                   "operator, change and line text, so edits elsewhere do not move them)")
    p.add_argument("--no-cache", action="store_true",
                   help="recompute the unmutated baselines and digests (kept in "
                   "BUILD/mutate-cache under a digest of the binary, shaders and options)")
    p.add_argument("--min-kill-rate", type=float, default=0.0,
                   help="exit 1 when fewer of the reached mutants are killed (0..1)")
    p.add_argument("--time-limit", type=float, default=0, metavar="SEC",
                   help="start no new mutant after SEC seconds; summarize those done")
    p.add_argument("--keep", action="store_true", help="keep the scratch directory")
    return p.parse_args()


def main():
    a = parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.chdir(root)
    pats = a.files or DEFAULT_FILES
    files = sorted({f for p in pats for f in glob.glob(p)} - set(SKIP_FILES))
    if not files:
        sys.exit("mutate: no source file matches " + " ".join(pats))
    ops = a.ops.split(",")
    for o in ops:
        if o not in OPERATORS:
            sys.exit(f"mutate: unknown operator '{o}' (known: {', '.join(OPS)})")
    allm = enumerate_mutants(root, files, ops)
    if a.resume and not a.json:
        sys.exit("mutate: --resume needs --json FILE")
    if a.plant:
        files, chosen = planted(a.plant)
    elif a.rerun:
        chosen = rerun(a.rerun, allm)
    elif a.mutant:
        chosen = [allm[i] for i in a.mutant if 0 <= i < len(allm)]
    elif a.sample:
        chosen = [allm[i] for i in sample(len(allm), a.sample, a.seed)]
    else:
        chosen = allm
    if a.show is not None:
        mu = allm[a.show]
        src = open(mu["file"]).read()
        old = src.split("\n")[mu["line"] - 1]
        new = apply(src, mu).split("\n")[mu["line"] - 1]
        print(f"{mu['file']}:{mu['line']}: {mu['op']}: {mu['desc']}\n-{old}\n+{new}")
        return 0
    if a.plant:
        print(f"mutant planted by hand in {files[0]}:{chosen[0]['line']}")
    else:
        print(f"mutants: {len(allm)} in {len(files)} files, {len(chosen)} chosen (seed {a.seed})")
    if a.list:
        for mu in sorted(chosen, key=lambda m: m["id"]):
            print(f"  #{mu['id']:<5} {mu['file']}:{mu['line']}: {mu['op']}: {mu['desc']}")
        return 0
    shaders = a.shaders or sorted(glob.glob("captures/*.tgsi"))
    modes = a.modes.split(",")
    scratch = tempfile.mkdtemp(prefix="dc-mutate-")
    try:
        # generated shaders in a lasting directory when cached: the cached
        # digests and baselines name them by path
        gdir = scratch if a.no_cache else os.path.join(os.path.abspath(a.build), "mutate-cache")
        shaders = shaders + write_generated(a, gdir)
        return campaign(a, root, files, chosen, shaders, modes, scratch)
    finally:
        if a.keep:
            print(f"scratch kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def rerun(path, allm):
    """--rerun FILE: the mutants of an earlier run, found again in today's
    sources by file, operator and change on a line of the same text (the
    nearest such line), so that edits elsewhere in a file do not move them.
    Those not found any more are named and left out."""
    try:
        old = json.load(open(path))
    except (OSError, ValueError) as e:
        sys.exit(f"mutate: --rerun: {path}: {e}")
    by = {}
    for mu in allm:
        by.setdefault((mu["file"], mu["op"], mu["desc"], mu["text"]), []).append(mu)
    out, lost = [], 0
    for r in old:
        if "text" not in r:
            cands = [mu for mu in allm if mutant_key(mu) == mutant_key(r)]
        else:
            cands = by.get((r["file"], r["op"], r["desc"], r["text"]), [])
        if not cands:
            lost += 1
            print(f"  not found any more: {r['file']}:{r['line']}: {r['op']}: {r['desc']}")
            continue
        out.append(min(cands, key=lambda mu: abs(mu["line"] - r["line"])))
    print(f"rerun: {len(out)} of {len(old)} mutants of {path} found ({lost} not)")
    return out


def planted(plant):
    """--plant FILE OLD NEW: one mutant written by hand (a bug planted in a
    test), run like the mechanical ones."""
    rel, old, new = plant
    try:
        src = open(rel, encoding="utf-8").read()
    except OSError as e:
        sys.exit(f"mutate: --plant: {e}")
    if src.count(old) != 1:
        sys.exit(f"mutate: --plant: '{old}' occurs {src.count(old)} times in {rel}, not once")
    s = src.index(old)
    mu = {"file": rel, "start": s, "end": s + len(old), "rep": new, "op": "plant",
          "desc": f"'{old}' -> '{new}'", "line": src.count("\n", 0, s) + 1, "id": "plant"}
    return [rel], [mu]


def write_generated(a, scratch):
    """check --generated N's shaders as files (gen_S.tgsi), so that a mutant
    can run on the ones that reach its line."""
    exe = os.path.join(os.path.abspath(a.build), "diffcomp")
    out = []
    for seed in generated_seeds(a.check_seed, a.generated):
        f = os.path.join(scratch, "gen", f"gen_{seed}.tgsi")
        os.makedirs(os.path.dirname(f), exist_ok=True)
        r = subprocess.run([exe, "gen", "--seed", str(seed), "-o", f] + (["--no-sink"] if a.no_gen_sink else []), capture_output=True,
                           text=True)
        if r.returncode:
            sys.exit(f"mutate: diffcomp gen --seed {seed}: " + r.stderr.strip())
        out.append(f)
    return out


class Cache:
    """The unmutated build's baselines and digests, kept in DIR/mutate-cache
    under a digest of the binary, the shaders and the check's options, so
    that a campaign run in chunks computes them once."""

    def __init__(self, a, ref_exe, shaders):
        self.dir = os.path.join(os.path.abspath(a.build), "mutate-cache")
        h = hashlib.sha1(open(ref_exe, "rb").read())
        for f in shaders:
            h.update(os.path.basename(f).encode())
            h.update(open(f, "rb").read())
        h.update(json.dumps(check_args(a, [], None, None, None)).encode())
        self.key = h.hexdigest()[:16]
        self.off = a.no_cache

    def path(self, what, mode):
        return os.path.join(self.dir, f"{self.key}-{what}-{mode}")

    def get(self, what, mode):
        if self.off:
            return None
        try:
            return json.load(open(self.path(what, mode) + ".json"))
        except (OSError, ValueError):
            return None

    def put(self, what, mode, value):
        if self.off:
            return
        os.makedirs(self.dir, exist_ok=True)
        f = self.path(what, mode) + ".json"
        with open(f + ".tmp", "w") as fh:
            json.dump(value, fh)
        os.replace(f + ".tmp", f)


def baselines(a, ref_exe, shaders, modes, scratch, cache):
    """The unmutated check once per mode: its failures are the baseline."""
    out = {}
    for mode in modes:
        base = os.path.join(scratch, f"baseline-{mode}.yaml")
        hit = cache.get("baseline", mode)
        if hit:
            with open(base, "w") as f:
                f.write(hit["yaml"])
            print(f"unmutated check, mode {mode}: {hit['secs']:.1f} s, {hit['fail']} failing "
                  "cases (baselined; cached)")
            out[mode] = (base, max(120.0, 20 * hit["secs"]))
            continue
        jsonf = os.path.join(scratch, "base.json")
        t = time.time()
        r = subprocess.run([ref_exe, *check_args(a, shaders, None, jsonf, mode),
                            "--write-baseline", base], capture_output=True, text=True)
        secs = time.time() - t
        if r.returncode not in (0, 1):
            sys.stderr.write(r.stdout + r.stderr)
            sys.exit(f"mutate: the unmutated check failed to run in mode {mode} "
                     f"(exit {r.returncode})")
        fail = json.load(open(jsonf))["summary"]["fail"]
        print(f"unmutated check, mode {mode}: {secs:.1f} s, {fail} failing cases (baselined)")
        cache.put("baseline", mode, {"yaml": open(base).read(), "secs": secs, "fail": fail})
        out[mode] = (base, max(120.0, 20 * secs))
    return out


def unmutated_digests(a, ref_exe, shaders, modes, cache):
    """{mode: digests} of the unmutated build and {mode: the wall limit of a
    mutant's digest compile}."""
    unmutated, dwall = {}, {}
    for m in modes:
        hit = cache.get("digests", m)
        if hit:
            unmutated[m] = {tuple(k): v for k, v in hit["digests"]}
            dwall[m] = hit["wall"]
            continue
        t = time.time()
        unmutated[m] = digests(ref_exe, a, shaders, m, None)
        dwall[m] = max(60.0, 5 * (time.time() - t))  # a mutant compiles a subset
        if unmutated[m] is None:
            sys.exit("mutate: compile --digest failed on the unmutated build")
        cache.put("digests", m, {"digests": sorted([list(k), v] for k, v in unmutated[m].items()),
                                 "wall": dwall[m]})
    return unmutated, dwall


class Runner:
    """A mutant's run against one build: its builder, and the unmutated
    build's baselines and digests (computed on first use)."""

    def __init__(self, a, root, shaders, modes, scratch):
        self.a, self.shaders, self.modes = a, shaders, modes
        os.makedirs(scratch, exist_ok=True)
        self.scratch = scratch
        self.b = Builder(root, a.build, scratch)
        self.ref_exe = os.path.join(self.b.build, "diffcomp")
        self.base = None

    def prepare(self):
        if self.base is not None:
            return
        a = self.a
        cache = Cache(a, self.ref_exe, self.shaders)
        self.base = baselines(a, self.ref_exe, self.shaders, self.modes, self.scratch, cache)
        self.unmutated = self.dwall = None
        if not a.no_digest:
            self.unmutated, self.dwall = unmutated_digests(a, self.ref_exe, self.shaders,
                                                           self.modes, cache)

    def run(self, mu, where):
        """The mutant built and checked in the modes (and on the shaders)
        of where: {status, signal, mode, cases, kinds, changed, seconds}."""
        self.prepare()
        a, b, unmutated, dwall = self.a, self.b, self.unmutated, self.dwall
        src = open(mu["file"], encoding="utf-8").read()
        ok, why = b.compile(mu["file"], apply(src, mu))
        if not ok:
            return {"status": "build-failure", "why": why}
        res = {"status": "survived", "signal": None, "seconds": 0.0, "cases": 0, "kinds": [],
               "changed": {}}
        for mode, ss in where.items():
            targets = None
            if unmutated is not None and mu["file"] not in DIRECT:
                t = time.time()
                ch = changed_cases(b.exe, a, ss, mode, unmutated[mode], dwall[mode])
                if ch == "hang":
                    # confirmed only if the unmutated build, timed now on the
                    # same shaders, is not as slow (a loaded machine is no hang)
                    t0 = time.time()
                    digests(self.ref_exe, a, ss, mode, 4 * dwall[mode])
                    wall2 = 5 * (time.time() - t0)
                    if wall2 > dwall[mode]:
                        ch = changed_cases(b.exe, a, ss, mode, unmutated[mode], wall2)
                res["seconds"] += time.time() - t
                if ch == "hang":  # compiling alone ran 5 times past the unmutated build
                    res.update(status="killed", signal="hang", mode=mode, kinds=["hang"])
                    break
                if ch is None:  # the compiler died: the check runs every shader
                    res.setdefault("digest_died", []).append(mode)
                else:
                    ss, targets = ch
                    res["changed"][mode] = len(ss)
                    if not ss:
                        continue
            c = run_check(b.exe, a, ss, self.base[mode][0], os.path.join(self.scratch, "m.json"),
                          self.base[mode][1], mode, targets, unmutated and unmutated[mode])
            res["seconds"] += c["seconds"]
            k = kill_signal(c["kinds"])
            if k:
                res.update(status="killed", signal=k, mode=mode, cases=c["cases"],
                           kinds=c["kinds"])
                break
        return res


def runtime_runner(a, root, shaders, modes, scratch):
    """--runtime-build DIR: a build without the IR validator
    (-DDIFFCOMP_VALIDATE=OFF), its check run with --no-verify, so that a
    mutant killed at compile time shows whether a runtime signal would
    have caught it too."""
    if not a.runtime_build:
        return None
    ra = argparse.Namespace(**vars(a))
    ra.build, ra.no_verify = a.runtime_build, True
    cache = os.path.join(os.path.abspath(ra.build), "CMakeCache.txt")
    try:
        on = re.search(r"^DIFFCOMP_VALIDATE:BOOL=(\S+)", open(cache).read(), re.M)
    except OSError:
        on = None
    if on is None:
        sys.exit(f"mutate: --runtime-build {a.runtime_build}: no CMakeCache.txt naming "
                 "DIFFCOMP_VALIDATE: configure it with -DDIFFCOMP_VALIDATE=OFF")
    if on.group(1).upper() in ("ON", "1", "TRUE", "YES"):
        print(f"note: --runtime-build {a.runtime_build} validates the IR (DIFFCOMP_VALIDATE=ON): "
              "only the verifier is off there", flush=True)
    return Runner(ra, root, shaders, modes, os.path.join(scratch, "runtime"))


def runtime_check(rt, res, where):
    """A compile-time kill run again on the runtime build: res gets
    'runtime_build', that run's result."""
    if rt is None or res["status"] != "killed" or res["signal"] not in STATIC:
        return
    r = rt.run(res, where)
    res["runtime_build"] = {k: r[k] for k in ("status", "signal", "mode", "cases", "kinds",
                                              "changed", "why") if k in r}


def campaign(a, root, files, chosen, shaders, modes, scratch):
    main_run = Runner(a, root, shaders, modes, os.path.join(scratch, "main"))
    t_start = time.time()
    reach = None
    if not a.no_reach:
        reach = Reach(root, a.cov_build, a, shaders, files, modes)
        reach.load(lambda s: print(s, flush=True))
        if a.reach_only:
            return reach_table(reach, files, chosen)
    main_run.prepare()
    rt = runtime_runner(a, root, shaders, modes, scratch)
    ref_programs = None
    results, not_run = resumed(a, chosen), 0
    done = {mutant_key(r) for r in results}
    wherefor = lambda mu: (reach.where(mu["file"], mu["line"]) if reach
                           else {m: shaders for m in modes})
    for res in results:  # chunks run before without --runtime-build
        if rt and "runtime_build" not in res and res["status"] == "killed" \
                and res["signal"] in STATIC:
            runtime_check(rt, res, wherefor(res))
            print(line_of(res), flush=True)
            write_json(a.json, results)
    for mu in chosen:
        if mutant_key(mu) in done:
            continue
        # the limit first: the mutants counted stay a prefix of the shuffle,
        # an unbiased sample (classifying the unreached rest would not be)
        if a.time_limit and time.time() - t_start > a.time_limit:
            not_run += 1
            continue
        res = dict(mu)
        where = wherefor(mu)
        res["reached"] = {m: len(ss) for m, ss in where.items()}
        if not where:
            res["status"] = "unreached"
            results.append(res)
            continue
        res.update(main_run.run(mu, where))
        runtime_check(rt, res, where)
        if res["status"] == "survived" and a.equiv:
            b = main_run.b
            if ref_programs is None:
                ref_programs = programs(main_run.ref_exe, shaders, a.target.split(","), modes)
            res["equivalent"] = programs(b.exe, shaders, a.target.split(","),
                                         modes) == ref_programs
        results.append(res)
        print(line_of(res), flush=True)
        if a.resume:
            write_json(a.json, results)
    if not_run:
        print(f"time limit: {not_run} mutants not run")
    return summary(a, results, files, time.time() - t_start)


def mutant_key(mu):
    """A mutant's identity across runs: its file, the span it replaces and
    the change (two mutants of one line may describe the same change at
    different places)."""
    return (mu["file"], mu["line"], mu["start"], mu["end"], mu["op"], mu["desc"])


def resumed(a, chosen):
    """--resume: the results of the chosen mutants that --json's file
    already holds (an earlier chunk of the same campaign)."""
    if not a.resume or not os.path.exists(a.json):
        return []
    want = {mutant_key(mu) for mu in chosen}
    try:
        old = json.load(open(a.json))
    except (OSError, ValueError) as e:
        sys.exit(f"mutate: --resume: {a.json}: {e}")
    out = [r for r in old if mutant_key(r) in want]
    print(f"resumed: {len(out)} mutants already run in {a.json}")
    return out


def write_json(path, results):
    with open(path + ".tmp", "w") as f:
        json.dump(results, f, indent=1)
    os.replace(path + ".tmp", path)


def reach_table(reach, files, chosen):
    """--reach-only: per file, how many of the chosen mutants some mode's
    check executes."""
    w = max(len(f) for f in files)
    print(f"  {'file':<{w}} {'mutants':>8} {'reached':>8} {'unreached':>9} {'reach%':>7}")
    tot = [0, 0]
    for f in files + ["total"]:
        ms = [m for m in chosen if m["file"] == f] if f != "total" else None
        if ms is not None:
            n, r = len(ms), sum(1 for m in ms if reach.where(m["file"], m["line"]))
            tot[0] += n
            tot[1] += r
        else:
            n, r = tot
        if n:
            print(f"  {f:<{w}} {n:>8} {r:>8} {n - r:>9} {100.0 * r / n:>6.0f}%")
    return 0


def line_of(r):
    where = f"#{r['id']:<5} {r['file']}:{r['line']}: {r['op']}: {r['desc']}"
    if r["status"] == "build-failure":
        return f"  build-failure          {where}"
    if r["status"] == "unreached":
        return f"  unreached              {where}"
    if r["status"] == "killed":
        rb, off = r.get("runtime_build"), ""
        if rb:
            off = "; validator and verifier off: " + (
                f"{rb['signal']}" if rb["status"] == "killed" else rb["status"])
        return (f"  killed {r['signal']:<16} {where} ({r['mode']}, {r['cases']} cases, "
                f"{r['seconds']:.1f} s{off})")
    eq = " [likely equivalent: no program changed]" if r.get("equivalent") else ""
    modes = ", ".join(f"{m} {n}" for m, n in r["reached"].items())
    ch = r.get("changed", {})
    if ch and len(ch) == len(r["reached"]):
        modes += "; programs changed: " + ", ".join(f"{m} {n}" for m, n in ch.items())
    if r.get("digest_died"):  # a crash the check's own runs did not meet
        modes += "; compile --digest died in: " + ", ".join(r["digest_died"])
    return f"  survived {where} (reached by: {modes}){eq}"


def tally(rs):
    t = {"mutants": len(rs)}
    for k in ("unreached", "build-failure", "killed", "survived"):
        t[k] = sum(1 for r in rs if r["status"] == k)
    t["runtime"] = sum(1 for r in rs if r["status"] == "killed" and r["signal"] not in STATIC)
    t["compile"] = t["killed"] - t["runtime"]
    t["rerun"] = sum(1 for r in rs if "runtime_build" in r)
    t["runtime-off"] = t["runtime"] + sum(1 for r in rs if runtime_off(r))
    t["unchanged"] = sum(1 for r in rs if r["status"] == "survived" and unchanged(r))
    return t


def runtime_off(r):
    """A compile-time kill that the runtime build (no IR validator, no
    per-rewrite verifier) kills by a runtime signal."""
    rb = r.get("runtime_build")
    return bool(rb) and rb["status"] == "killed" and rb["signal"] not in STATIC


def unchanged(r):
    """A survivor that changed no opt program in any mode reaching it."""
    ch = r.get("changed", {})
    return len(ch) == len(r["reached"]) and not any(ch.values())


def summary(a, results, files, secs):
    pct = lambda x, n: f"{100.0 * x / n:.0f}%" if n else "-"
    cols = ["mutants", "unreached", "build-failure", "killed", "runtime", "compile", "survived",
            "unchanged"]
    heads = ["mutants", "unreached", "no-build", "killed", "runtime", "compile", "survived",
             "unchanged", "kill%", "run%"]
    w = max([len(f) for f in files] + [5])
    print(f"\nper file (killed = runtime + compile-time kills; unchanged: survivors that "
          f"change no opt program; rates over reached, built mutants; {secs / 60:.1f} min):")
    print(f"  {'file':<{w}} " + " ".join(f"{h:>9}" for h in heads))
    rows = [(f, tally([r for r in results if r["file"] == f])) for f in files]
    rows = [(f, t) for f, t in rows if t["mutants"]] + [("total", tally(results))]
    for f, t in rows:
        n = t["killed"] + t["survived"]
        print(f"  {f:<{w}} " + " ".join(f"{t[c]:>9}" for c in cols)
              + f" {pct(t['killed'], n):>9} {pct(t['runtime'], n):>9}")
    t = tally(results)
    n = t["killed"] + t["survived"]
    by = {}
    for r in results:
        if r["status"] == "killed":
            by[r["signal"]] = by.get(r["signal"], 0) + 1
    print(f"\nmutants: {len(results)} ({t['unreached']} unreached by any mode: coverage gaps, "
          f"not run), {t['build-failure']} build failures (not counted)")
    print(f"killed: {t['killed']} of {n} reached ({pct(t['killed'], n)}); by a runtime signal "
          f"{t['runtime']} ({pct(t['runtime'], n)}), at compile time {t['compile']}")
    gaps = n + t["unreached"]
    print(f"counting unreached mutants as missed: killed {pct(t['killed'], gaps)}, "
          f"by a runtime signal {pct(t['runtime'], gaps)}")
    m = n - t["unchanged"]
    print(f"leaving out the {t['unchanged']} survivors that change no program (equivalent on "
          f"these shaders): killed {pct(t['killed'], m)}, by a runtime signal "
          f"{pct(t['runtime'], m)}")
    if t["rerun"]:
        off = t["runtime-off"]
        left = t["compile"] - t["rerun"]
        print(f"with the validator and the verifier off (--runtime-build: {t['rerun']} of the "
              f"{t['compile']} compile-time kills run again"
              + (f", {left} not" if left else "") + f"): by a runtime signal {off} "
              f"({pct(off, n)} of reached; {pct(off, m)} leaving out the unchanged)")
        rbs = [r for r in results if "runtime_build" in r]
        for what, sel in (("runtime there", runtime_off),
                          ("still compile-time", lambda r: r["runtime_build"]["status"] ==
                           "killed" and not runtime_off(r)),
                          ("survive there", lambda r: r["runtime_build"]["status"] ==
                           "survived"),
                          ("build failures there", lambda r: r["runtime_build"]["status"] ==
                           "build-failure")):
            k = [r for r in rbs if sel(r)]
            if k:
                print(f"  {what}: {len(k)}: " + ", ".join(
                    f"{r['file']}:{r['line']}" + (f" ({r['runtime_build']['signal']})"
                                                  if r["runtime_build"].get("signal") else "")
                    for r in sorted(k, key=lambda r: r["id"] if isinstance(r["id"], int) else -1)))
    if by:
        print("  by signal: " + ", ".join(f"{k} {v}" for k, v in sorted(by.items())))
    modes = {}
    for r in results:
        if r["status"] == "killed":
            modes[r["mode"]] = modes.get(r["mode"], 0) + 1
    if modes:
        print("  by mode: " + ", ".join(f"{k} {v}" for k, v in modes.items()))
    surv = [r for r in results if r["status"] == "survived"]
    if surv:
        print("survivors (reached in the modes named):")
        for r in sorted(surv, key=lambda r: r["id"]):
            print(line_of(r))
    gap = [r for r in results if r["status"] == "unreached"]
    if gap:
        print("unreached (no mode's check executes the line):")
        for f in files:
            ls = sorted({r["line"] for r in gap if r["file"] == f})
            if ls:
                print(f"  {f}: lines {', '.join(map(str, ls))}")
    if a.json:
        write_json(a.json, results)
    rate = t["killed"] / n if n else 1.0
    return 1 if rate < a.min_kill_rate else 0


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
