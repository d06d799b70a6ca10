#!/usr/bin/env python3
"""`make bench-check` and `make bench-baseline`: the hot paths' instruction counts under callgrind, against the
baselines in Benchmarks/instruction-baselines.txt.

Wall and CPU times on a shared machine move 10-30 % from run to run; the number of instructions a binary executes on
a fixed input does not. `coordlens-bench count-inputs DIR` writes the recordings (outside callgrind, where making
them would take most of the time), then `coordlens-bench count GROUP DIR` builds or reads each group's inputs and
runs each hot path inside `instructionCountedRegion`; callgrind collects only inside that function
(--toggle-collect) and writes a dump as it returns (--dump-after), so each dump is one region. The writer's encoding
runs on the writer thread and is counted as `SessionWriter.process` itself. Each figure is the region's count less
an empty region's, divided by the operations it ran. Swift's hashing is made deterministic
(SWIFT_DETERMINISTIC_HASHING=1), so dictionaries probe the same way in every run; the hook's calls run with the
writer thread parked in its sink, so no other thread takes the tracer's lock while they are counted.

  bench_check.py check  BENCH [--groups g,...]      compare with the baselines; exit 1 when a figure grew > 3 %
  bench_check.py record BENCH --why TEXT [--only n,...] [--all]
                                                    write the figures that moved (or --only those, or --all)
  bench_check.py twice  BENCH [--groups g,...]      run every group twice and print how far the counts differ
  bench_check.py show   BENCH [--groups g,...]      print the figures, compare with nothing
  bench_check.py profile BENCH --groups g,...       the same, and each region's instructions by function
"""

import argparse
import concurrent.futures
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "Benchmarks", "instruction-baselines.txt")
# A figure fails the check when it grows by more than this.
LIMIT = 0.03
# A figure this close to its baseline is the same figure: `record` leaves its line (and its commit) alone.
SAME = 0.001

# The functions counted, found in the binary's symbol table by these patterns of their mangled names (a function's
# ends in F; its closures and specialisations add suffixes): callgrind is then given exact names, since its wildcards
# do not combine --toggle-collect with --dump-after. If a refactor renames or inlines the writer's `process`, the check
# fails saying so.
REGION = r"^\$s\d+coordlens_bench\d+instructionCountedRegion\w*F$"
WRITER_PROCESS = r"^\$s16CoordinatorTrace13SessionWriterC7process\w*RawEventVF$"
# The reader's second thread: splits, decodes and batches a region of lines (a private method: its name carries a
# discriminator).
REGION_DECODER_RUN = r"^\$s15CoordinatorLens13RegionDecoderC3run\w*LLyyF$"
# Groups counted on another thread than the bench's own: callgrind collects inside that thread's function and writes
# one dump at the end.
THREAD_GROUPS = {"writer": WRITER_PROCESS, "reader": REGION_DECODER_RUN}

GROUPS = ["empty", "hook", "writer", "decode", "reader", "check", "diff", "dot", "page", "baseline", "retainer"]
# Roughly how many instructions each group runs under callgrind, counted or not (millions).
COST = {"baseline": 2200, "diff": 1850, "dot": 1540, "page": 1280, "decode": 700, "reader": 250, "check": 450, "writer": 200, "hook": 150, "retainer": 1000, "empty": 1}

# What each figure counts, for the table.
DESCRIPTIONS = {
    "hook.added": "Tracer.added of a known coordinator, calling thread, 1,000 live",
    "hook.added.first": "Tracer.added of a coordinator seen for the first time",
    "hook.floor": "the floor: an uncontended lock around an append of the same value",
    "hook.bind": "Tracer.bind to a new screen",
    "hook.screenLeft": "Tracer.screenLeft of a screen with one coordinator bound",
    "hook.dismissed": "Tracer.dismissed",
    "hook.removed": "Tracer.removed from its parent",
    "hook.mark": "Tracer.mark, sweeping 1,000 live coordinators",
    "writer.encode": "writer thread: encode one event (add/bind/dismiss/remove/deinit/mark mix)",
    "decode.apply": "decode + apply, per event of a 100,000-event recording",
    "decode.apply.sites": "the same with a call site on every event",
    "decode.region": "the reader's second thread: split, decode and batch, per event of a 100,000-event recording",
    "check": "check of a 100,000-event recording (one thread), whole",
    "diff": "diff of two 100,000-coordinator runs, whole",
    "dot": "DOT text of 20,000 coordinators (--all), whole",
    "page.json": "the page's model of 100,000 coordinators as JSON, whole",
    "decode.move": "apply, per move of a 40-coordinator flow among the bottom of a 10,000-deep chain",
    "baseline.read": "reading a 572-leak baseline (28,600 paths, 10.5 MB), per leak",
    "baseline.write": "baseline of a 40,000-coordinator app recording, whole (read, judge, summarise, write)",
}


def symbol(bench, pattern):
    """The one defined function of `bench` whose mangled name matches `pattern`."""
    output = subprocess.run(["nm", "--defined-only", bench], capture_output=True, text=True, check=True).stdout
    names = sorted({fields[2] for fields in (line.split() for line in output.splitlines())
                    if len(fields) == 3 and fields[1] in "tT" and re.search(pattern, fields[2])})
    if len(names) != 1:
        raise RuntimeError(
            f"{bench}: {len(names)} functions match {pattern} ({', '.join(names[:4])}); want exactly one: "
            "if it was renamed or inlined, update scripts/bench_check.py")
    return names[0]


def callgrind_command(bench, group, out_file):
    region = symbol(bench, REGION)
    toggle = symbol(bench, THREAD_GROUPS[group]) if group in THREAD_GROUPS else region
    command = [
        shutil.which("valgrind") or "valgrind", "--tool=callgrind", "--callgrind-out-file=" + out_file, "--collect-atstart=no",
        "--toggle-collect=" + toggle, "--dump-instr=no", "--compress-strings=no", "--compress-pos=no",
    ]
    if group not in THREAD_GROUPS:
        command.append("--dump-after=" + region)
    return command


def totals(path):
    """The instructions a callgrind dump counted."""
    with open(path) as dump:
        for line in dump:
            if line.startswith("totals:") or line.startswith("summary:"):
                fields = line.split()
                return int(fields[1]) if len(fields) > 1 else 0
    raise RuntimeError(f"{path}: no totals line")


def run_group(bench, group, folder, inputs, profile=False):
    """Runs one group under callgrind; returns [(region, operations, instructions)] and the seconds it took."""
    out_file = os.path.join(folder, f"{group}.out")
    # The same small environment whoever runs it (a developer's shell, make, CI): the environment's size moves where
    # the stack starts, and with it a few thousand instructions of a large figure.
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C", "SWIFT_DETERMINISTIC_HASHING": "1"}
    started = time.monotonic()
    result = subprocess.run(
        callgrind_command(bench, group, out_file) + [bench, "count", group, inputs], capture_output=True, text=True, env=env,
        cwd=folder)
    seconds = time.monotonic() - started
    if result.returncode != 0:
        raise RuntimeError(f"group {group} failed (exit {result.returncode}):\n{result.stdout}{result.stderr[-3000:]}")
    regions = []
    for line in result.stdout.splitlines():
        if line.startswith("region "):
            _, name, operations = line.split()
            regions.append((name, int(operations)))
        if line.startswith("unavailable "):
            # An older tree's bench (make bench-compare COUNTS=1) without what the group measures.
            return [], seconds
    if not regions:
        raise RuntimeError(f"group {group} named no region:\n{result.stdout}")
    if group in THREAD_GROUPS:
        dumps = [out_file]
    else:
        numbered = [name for name in os.listdir(folder) if re.fullmatch(re.escape(group) + r"\.out\.\d+", name)]
        dumps = [os.path.join(folder, name) for name in sorted(numbered, key=lambda name: int(name.rsplit(".", 1)[1]))]
    if len(dumps) != len(regions):
        raise RuntimeError(f"group {group}: {len(regions)} regions but {len(dumps)} callgrind dumps")
    counted = []
    for (name, operations), dump in zip(regions, dumps):
        instructions = totals(dump)
        if instructions <= 0:
            where = {"writer": "SessionWriter.process", "reader": "RegionDecoder.run"}.get(group, "instructionCountedRegion")
            raise RuntimeError(f"{name}: callgrind counted nothing in {where}; if it was renamed or inlined, update scripts/bench_check.py")
        counted.append((name, operations, instructions))
        if profile:
            print_profile(name, operations, dump)
    return counted, seconds


def print_profile(name, operations, dump):
    """The functions a region spent its instructions in (their own, not their callees'), per operation."""
    # A region starts deep in the stack: callgrind writes its cost once more as calls (count 0) from the frames above,
    # which callgrind_annotate 3.19 takes for those frames' own cost. Those lines are left out.
    lines = open(dump).read().splitlines()
    kept = []
    skip = 0
    for index, line in enumerate(lines):
        if skip:
            skip -= 1
            continue
        if line.startswith("calls=0 "):
            # The call's cost line follows, after the cfn/cfi/cob lines that name the callee.
            while kept and kept[-1].startswith(("cfn=", "cfi=", "cfl=", "cob=")):
                kept.pop()
            skip = 1
            continue
        kept.append(line)
    with open(dump + ".clean", "w") as file:
        file.write("\n".join(kept) + "\n")
    output = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--threshold=97", dump + ".clean"], capture_output=True, text=True).stdout
    rows = []
    for line in output.splitlines():
        match = re.match(r"^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(?:\?\?\?|[^:]*):(\S+)", line)
        if match and "PROGRAM TOTALS" not in line:
            rows.append((int(match.group(1).replace(",", "")), match.group(2)))
    names = "\n".join(function for _, function in rows)
    try:
        names = subprocess.run(["swift", "demangle", "--simplified"], input=names, capture_output=True, text=True, check=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):
        pass
    print(f"\n{name}: instructions per operation ({operations:,} operations), by function (own cost)")
    for (cost, _), function in zip(rows, names.splitlines()):
        print(f"  {cost / operations:>14,.1f}  {function[:150]}")


def measure(bench, groups, jobs, profile=False):
    """Every figure of `groups`, per operation, the empty region's count taken off each region first."""
    wanted = ["empty"] + [group for group in groups if group != "empty"]
    results = {}
    timings = {}
    with tempfile.TemporaryDirectory(prefix="bench-check-") as folder:
        # Valgrind 3.19 cannot read the DWARF 5 the toolchain writes and gives up on the binary: a copy without debug
        # information runs the same instructions, and the symbol table names the functions.
        stripped = os.path.join(folder, "coordlens-bench")
        subprocess.run(["objcopy", "--strip-debug", bench, stripped], check=True)
        bench = stripped
        inputs = os.path.join(folder, "inputs")
        os.makedirs(inputs)
        subprocess.run([bench, "count-inputs", inputs], check=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {}
            # The longest first, so the two workers finish together.
            for group in sorted(wanted, key=lambda group: -COST.get(group, 0)):
                sub = os.path.join(folder, group)
                os.makedirs(sub)
                futures[group] = pool.submit(run_group, bench, group, sub, inputs, profile)
            for group in wanted:
                results[group], timings[group] = futures[group].result()
    empty = results["empty"][0][2]
    figures = {}
    raw = {}
    for group in wanted:
        if group == "empty":
            continue
        for name, operations, instructions in results[group]:
            # A thread group's count is its function's own, with no region around it to take off.
            fixed = 0 if group in THREAD_GROUPS else empty
            figures[name] = (instructions - fixed) / operations
            raw[name] = (instructions, operations)
    return figures, raw, empty, timings


def read_baselines():
    """name -> (instructions per operation, measured on, why, line number)."""
    baselines = {}
    if not os.path.exists(BASELINE):
        return baselines
    with open(BASELINE) as file:
        for number, line in enumerate(file, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split(None, 3)
            if len(fields) < 4:
                raise RuntimeError(f"{BASELINE}:{number}: want 'name instructions measured-on why', got {line.strip()!r}")
            baselines[fields[0]] = (float(fields[1]), fields[2], fields[3].strip(), number)
    return baselines


def set_by(line_number):
    """The commit that last changed a baseline's line, from git blame."""
    try:
        output = subprocess.run(
            ["git", "-C", ROOT, "blame", "--porcelain", "-L", f"{line_number},{line_number}", "--", BASELINE],
            capture_output=True, text=True, check=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "not in git"
    commit = output.split()[0] if output else ""
    if not commit or set(commit) == {"0"}:
        return "not committed yet"
    summary = next((line[len("summary "):] for line in output.splitlines() if line.startswith("summary ")), "")
    return f"set in {commit[:9]} \"{summary[:60]}\""


def number(value):
    return f"{value:,.1f}" if value < 100_000 else f"{value:,.0f}"


def print_table(figures, baselines):
    print(f"{'figure':<20} {'baseline':>15} {'now':>15} {'change':>8}  what (instructions per operation)")
    for name in figures:
        now = figures[name]
        base = baselines.get(name)
        change = f"{(now / base[0] - 1) * 100:+.2f}%" if base else "new"
        print(f"{name:<20} {number(base[0]) if base else '-':>15} {number(now):>15} {change:>8}  {DESCRIPTIONS.get(name, '')}")


def head_commit():
    try:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=9", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", "Sources", "Benchmarks", "Package.swift"],
            capture_output=True, text=True, check=True).stdout.strip()
    except (subprocess.CalledProcessError, FileNotFoundError):
        return "unknown"
    return commit + ("+" if dirty else "")


def check(figures, baselines):
    failures = []
    for name, now in figures.items():
        if name not in baselines:
            failures.append(f"{name}: {number(now)} instructions per operation and no baseline: run make bench-baseline WHY=\"...\"")
            continue
        base, measured_on, why, line_number = baselines[name]
        if now > base * (1 + LIMIT):
            failures.append(
                f"{name}: {number(now)} instructions per operation against a baseline of {number(base)} "
                f"(+{(now / base - 1) * 100:.2f}%, more than {LIMIT * 100:.0f}%); {DESCRIPTIONS.get(name, '')}. "
                f"The baseline's line: {set_by(line_number)}, measured on {measured_on}: {why}")
        elif now < base * (1 - LIMIT):
            print(
                f"bench-check: {name} is {(1 - now / base) * 100:.1f}% cheaper than its baseline: keep the gain with "
                f"make bench-baseline WHY=\"...\" (the gate only catches growth beyond the baseline)")
    stale = [name for name in baselines if name not in figures]
    return failures, stale


def baseline_line(name, instructions, measured_on, why):
    return f"{name:<20} {number(instructions).replace(',', ''):>13}  {measured_on:<10}  {why}"


def record(figures, baselines, why, only, everything):
    measured_on = head_commit()
    today = datetime.date.today().isoformat()
    lines = []
    moved = []
    header = [
        "# make bench-check's baselines: instructions per operation of each hot path, counted by callgrind on inputs the",
        "# bench makes itself (scripts/bench_check.py, Benchmarks/coordlens-bench/InstructionCounts.swift). A figure more than",
        "# 3 % above its line fails the check. A line moves only through `make bench-baseline WHY=\"...\"`, in a commit whose",
        "# message says why; each line keeps the commit its figure was measured on (+: with that commit's changes on top,",
        "# i.e. measured for the commit that set the line) and the reason.",
        f"# {'name':<18} {'instructions':>13}  {'measured-on':<10}  why",
    ]
    for name, now in figures.items():
        old = baselines.get(name)
        unchanged = old is not None and abs(now / old[0] - 1) <= SAME
        if old is not None and not everything and (name not in only if only else unchanged):
            lines.append(baseline_line(name, old[0], old[1], old[2]))
        else:
            lines.append(baseline_line(name, now, measured_on, f"{why} ({today})"))
            moved.append(f"{name}: {number(old[0]) if old else 'none'} -> {number(now)}")
    for name, (base, measured_on_before, reason, _) in baselines.items():
        if name not in figures:
            lines.append(baseline_line(name, base, measured_on_before, reason))
    with open(BASELINE, "w") as file:
        file.write("\n".join(header + lines) + "\n")
    return moved


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["check", "record", "twice", "show", "profile"])
    parser.add_argument("bench", help="a release coordlens-bench")
    parser.add_argument("--groups", default=",".join(GROUPS), help="comma-separated groups (default: all)")
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("BENCH_CHECK_JOBS", "2")))
    parser.add_argument("--why", default="", help="record: why the baselines move (required)")
    parser.add_argument("--only", default="", help="record: only these figures, comma-separated")
    parser.add_argument("--all", action="store_true", help="record: every figure, moved or not")
    parser.add_argument("--json", default="", help="also write the figures to this file as JSON")
    arguments = parser.parse_args()
    groups = [group for group in arguments.groups.split(",") if group]
    unknown = [group for group in groups if group not in GROUPS]
    if unknown:
        parser.error(f"unknown group(s) {', '.join(unknown)}; groups: {', '.join(GROUPS)}")
    if arguments.command == "record" and not arguments.why.strip():
        parser.error("record needs --why: a baseline moves only with a reason (make bench-baseline WHY=\"...\")")

    started = time.monotonic()
    try:
        figures, raw, empty, timings = measure(
            arguments.bench, groups, 1 if arguments.command == "profile" else arguments.jobs, arguments.command == "profile")
    except RuntimeError as error:
        print(f"bench-check: {error}", file=sys.stderr)
        return 1
    baselines = read_baselines()
    took = ", ".join(f"{group} {seconds:.0f} s" for group, seconds in timings.items())
    print(f"bench-check: callgrind counts, an empty region {empty} instructions (taken off each); groups: {took}")

    if arguments.command == "twice":
        second, second_raw, _, _ = measure(arguments.bench, groups, arguments.jobs)
        print(f"{'figure':<20} {'first':>15} {'second':>15} {'difference':>11}")
        worst = 0.0
        identical = 0
        for name, first in figures.items():
            difference = abs(second[name] - first) / first
            worst = max(worst, difference)
            identical += second_raw[name] == raw[name]
            print(f"{name:<20} {number(first):>15} {number(second[name]):>15} {difference * 100:>10.4f}%"
                  f"  {raw[name][0]:,} and {second_raw[name][0]:,} instructions")
        print(f"bench-check: {identical} of {len(figures)} figures counted the same instructions twice; the largest "
              f"difference is {worst * 100:.4f}% (the gate needs < {SAME * 100:.1f}%)")
        return 0 if worst < SAME else 1

    if arguments.json:
        with open(arguments.json, "w") as file:
            json.dump(figures, file, indent=1)
    print_table(figures, baselines)
    if arguments.command in ("show", "profile"):
        return 0
    if arguments.command == "record":
        only = {name for name in arguments.only.split(",") if name}
        moved = record(figures, baselines, arguments.why.strip(), only, arguments.all)
        print(f"bench-baseline: {len(moved)} figure(s) written to {os.path.relpath(BASELINE, ROOT)}" + ("".join(f"\n  {line}" for line in moved)))
        print("bench-baseline: commit the file with a message that says why the figures moved.")
        return 0

    failures, stale = check(figures, baselines)
    if stale and arguments.groups == ",".join(GROUPS):
        # A figure that stops appearing is a hole in the check, not a pass: a build that left a module out (the page
        # model, when the counts' build lost its dependency) read "within 3 %" with one figure fewer.
        failures += [f"{name}: a baseline with no figure in this run (a group left out of the build? if the figure is gone "
                     "on purpose, delete its line from the baselines)" for name in stale]
    print(f"bench-check: {len(figures)} figures in {time.monotonic() - started:.0f} s")
    if failures:
        for failure in failures:
            print(f"bench-check: FAILED {failure}", file=sys.stderr)
        return 1
    print(f"bench-check: every figure within {LIMIT * 100:.0f}% of its baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
