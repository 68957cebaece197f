#!/usr/bin/env python3
"""The record path, proven from the machine code a consumer gets.

Usage: tests/record-path.py [--sanitized] OBJ [LABEL]

Disassembles kstats_record_site() in OBJ (tests/kmod/kstats_bench.o: a
consumer's kstats_record(), inlined) and fails unless:
  - it calls nothing: the only call is the ftrace site (__fentry__, a nop
    until traced) and the only jump out is the return thunk;
  - it has no lock prefix (no locked atomics);
  - it updates exactly one slot: two %gs-relative (per-CPU) adds with the same
    base and index, at displacements d (count) and d + 8 (part sum) of one
    16-byte slot;
  - it is at most MAX_INSNS instructions, unless sanitizer calls remain in
    it (KASAN checks every load and store: the bound is kstats', not theirs).
Prints the instruction count (the ftrace site left out) for `make bench`.
With --sanitized (a KASAN kernel, whose compiler puts a check before
every load and store), calls into the sanitizers are let pass: they are the
debug kernel's, not kstats'; everything else is checked the same. Such a
compiler may move the sanitizer calls to a cold part (kstats_record_site.cold,
in .text.unlikely): the jumps there are let pass too, and the cold part must
call nothing but the sanitizers. A UBSAN-only kernel (Debian's 7.x) is
checked without --sanitized, as any stock kernel: no call at all.
"""
import re
import subprocess
import sys

ALLOWED_CALLS = {"__fentry__"}
MAX_INSNS = 30  # issue 22: precomputed per-metric constants, a branch-free index
ALLOWED_JUMPS = {"__x86_return_thunk"}
SANITIZERS = ("__asan_", "__ubsan_", "__kasan_", "__sanitizer_cov_")
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(.*)$")
RELOC = re.compile(r"^\s*[0-9a-f]+: R_X86_64_\w+\s+([\w.]+)")
PERCPU = re.compile(r"^(?:lock\s+)?(add|inc)[bwlq]?\s+(?:\S+,)?%gs:(0x[0-9a-f]+|-?\d+)?"
                    r"\((%\w+)(?:,(%\w+),(\d))?\)$")


def site(obj, name="kstats_record_site"):
    dis = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", obj],
                         check=True, capture_output=True, text=True).stdout
    lines, on = [], False
    for line in dis.splitlines():
        if line.endswith("<%s>:" % name):
            on = True
        elif on and not line.strip():
            break
        elif on:
            lines.append(line)
    return lines


def parse(lines):
    insns = []
    for line in lines:
        m = INSN.match(line)
        r = RELOC.match(line)
        if r and insns:
            insns[-1][1] = r.group(1)
        elif m:
            insns.append([m.group(2).strip(), None])
    return insns


def check_cold(lines):
    """The cold part: sanitizer calls and jumps back, nothing else out."""
    problems = []
    for text, target in parse(lines):
        op = text.split()[0]
        if op.startswith("call") and not (target and target.startswith(SANITIZERS)):
            problems.append("cold part: call: %s %s" % (text, target or ""))
        if op.startswith("jmp") and target and target not in (".text",) + tuple(ALLOWED_JUMPS):
            problems.append("cold part: tail call: %s %s" % (text, target))
    return problems


def check(lines, sanitized=False, cold=()):
    insns, problems = parse(lines), []
    if not insns:
        return 0, ["no kstats_record_site() in the object"]
    counted = sanitizer_calls = 0
    slots = []
    for text, target in insns:
        op = text.split()[0]
        if op == "lock" or text.startswith("lock "):
            problems.append("lock prefix: " + text)
        if op.startswith("call"):
            if target in ALLOWED_CALLS:
                continue
            if sanitized and target and target.startswith(SANITIZERS):
                sanitizer_calls += 1
                continue
            problems.append("call: %s %s" % (text, target or ""))
        cold_jump = sanitized and cold and target == ".text.unlikely"
        if op.startswith("jmp") and target and target not in ALLOWED_JUMPS and not cold_jump:
            problems.append("tail call: %s %s" % (text, target))
        if op in ("endbr64", "int3") or op.startswith("nop"):
            continue
        counted += 1
        m = PERCPU.match(text)
        if m:
            slots.append((int(m.group(2) or "0", 0), m.group(3), m.group(4), m.group(5)))
    if len(slots) != 2:
        problems.append("%d per-CPU adds, want 2 (count and part sum)" % len(slots))
    else:
        (d0, *a0), (d1, *a1) = sorted(slots)
        if a0 != a1 or d1 - d0 != 8 or d0 % 16:
            problems.append("the two adds do not address one 16-byte slot: %r" % slots)
    if not sanitizer_calls and counted > MAX_INSNS:
        problems.append("%d instructions, more than %d" % (counted, MAX_INSNS))
    return counted, problems


GOOD = """\
 1b0:	endbr64
 1b4:	call   1b9 <kstats_record_site+0x9>
			1b5: R_X86_64_PLT32	__fentry__-0x4
 1b9:	mov    (%rdi),%eax
 1bb:	test   %eax,%eax
 1bd:	je     201 <kstats_record_site+0x51>
 1bf:	mov    0x10(%rdi),%ecx
 1e0:	add    0x8(%rdi),%rax
 1e4:	incq   %gs:(%rax)
 1fc:	add    %rsi,%gs:0x8(%rax)
 201:	jmp    206 <kstats_record_site+0x56>
			202: R_X86_64_PLT32	__x86_return_thunk-0x4"""


def self_test():
    """The checker catches each thing it is there to catch."""
    good = GOOD.splitlines()
    bad = {
        "call": good[:4] + [" 1ba:\tcall   0 <x>", "\t\t\t1bb: R_X86_64_PLT32\tprintk-0x4"] + good[4:],
        "lock": good[:4] + [" 1ba:\tlock incq (%rax)"] + good[4:],
        "slots": [l.replace("%gs:0x8(%rax)", "%gs:0x8(%rdx)") for l in good],
        "long": good[:4] + [" 1ba:\tnop"] + [" 1ba:\tmov    %rax,%rax"] * MAX_INSNS + good[4:],
    }
    count, problems = check(good)
    ok = not problems and count == 8
    for name, lines in bad.items():
        if not check(lines)[1]:
            print("record-path self-test: a path with a %s passed" % name)
            ok = False
    print("record-path self-test: %s" % ("ok" if ok else "FAIL"))
    return 0 if ok else 1


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        return self_test()
    sanitized = bool(args) and args[0] == "--sanitized"
    args = args[1:] if sanitized else args
    obj = args[0]
    label = args[1] if len(args) > 1 else obj
    cold = site(obj, "kstats_record_site.cold")
    count, problems = check(site(obj), sanitized, cold)
    if sanitized:
        problems += check_cold(cold)
    for p in problems:
        print("record path (%s): %s" % (label, p))
    if problems:
        print("record path (%s): FAIL" % label)
        return 1
    print("record path (%s): %d instructions, no call%s, no lock, one 16-byte slot"
          % (label, count, " (but KASAN's)" if sanitized else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
