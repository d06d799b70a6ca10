#!/usr/bin/env python3
"""`make bench-compare BASE=<rev>`: every `make bench` figure of BASE and of the working tree, side by side.

BASE is checked out in a worktree of its own (.build-compare/<commit>, kept for the next comparison) and built for
release there; the working tree is built in .build-bench. Then, ROUNDS times, BASE's bench runs and then this tree's
(in turn, so both see the same machine), each its own coordlens-bench, the page-latency bench and the flood bench with
its own coordlens. Each line of this tree's output is printed with every number that differs written
`base→now (×now/base)`; with several rounds each number is the median of its rounds.

  bench_compare.py --base REV [--rounds N] [--no-browser] [--counts] [-- BENCH_ARGS...]

BENCH_ARGS picks coordlens-bench's figures as `coordlens-bench` does (`decode check hook`, ...); the browser and flood
benches run only when BENCH_ARGS is empty. --counts also prints `make bench-check`'s instruction counts of both trees,
counted by this tree's scenarios built against BASE's sources (when they still compile there). The decode+apply figures
of record (a fresh process per run) are measured in BASE by this tree's DecodeRuns.swift, built the same way.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT = os.environ.get("SWIFT", "swift")
VENV_PYTHON = os.path.join(ROOT, ".build", "venv", "bin", "python")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

NUMBER = re.compile(r"(?<![\w.^])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w^])")


def git(*arguments, cwd=ROOT):
    return subprocess.run(["git", *arguments], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def say(text):
    print(f"bench-compare: {text}", flush=True)


def worktree_for(commit):
    """A worktree of `commit` under .build-compare, made once and reused."""
    folder = os.path.join(ROOT, ".build-compare", commit[:12])
    if os.path.exists(os.path.join(folder, "Package.swift")):
        git("checkout", "--quiet", "--detach", commit, cwd=folder)
        return folder
    subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=True)
    os.makedirs(os.path.dirname(folder), exist_ok=True)
    say(f"checking out {commit[:12]} in {os.path.relpath(folder, ROOT)}")
    subprocess.run(["git", "worktree", "add", "--detach", "--quiet", folder, commit], cwd=ROOT, check=True)
    return folder


def build(tree, scratch, products):
    """Release builds of `products` in `tree` with its own scratch folder; returns the binaries' folder."""
    for product in products:
        say(f"building {product} (release) in {os.path.relpath(tree, ROOT) or '.'}, scratch {os.path.relpath(scratch, ROOT)}")
        result = subprocess.run(
            [SWIFT, "build", "-c", "release", "--product", product, "--scratch-path", scratch], cwd=tree,
            capture_output=True, text=True)
        if result.returncode != 0:
            sys.stderr.write(result.stdout[-6000:] + result.stderr[-3000:])
            raise RuntimeError(f"the release build of {product} failed in {tree}")
    return subprocess.run(
        [SWIFT, "build", "-c", "release", "--scratch-path", scratch, "--show-bin-path"], cwd=tree, capture_output=True,
        text=True, check=True).stdout.strip()


def run_side(tree, binaries, bench_args, browser, log):
    """One round of `make bench` for one build: its lines, in order."""
    commands = [[os.path.join(binaries, "coordlens-bench"), *bench_args]]
    if browser:
        coordlens = os.path.join(binaries, "coordlens")
        commands.append([VENV_PYTHON, os.path.join(tree, "Benchmarks", "browser", "latency.py"), coordlens])
        # Issue 52's big app: a revision from before the bench has no figures for it, and its lines show as this tree's only.
        big_app = os.path.join(tree, "Benchmarks", "browser", "big_app.py")
        if os.path.exists(big_app):
            commands.append([VENV_PYTHON, big_app, coordlens])
        commands.append([VENV_PYTHON, os.path.join(tree, "Benchmarks", "flood.py"), coordlens])
    lines = []
    for command in commands:
        result = subprocess.run(command, cwd=tree, capture_output=True, text=True, env=dict(os.environ, CHROMIUM=CHROMIUM))
        log.write(f"$ {' '.join(command)}\n{result.stdout}{result.stderr}\n")
        log.flush()
        if result.returncode != 0:
            lines.append(f"[{os.path.basename(command[-1] if command[0] == VENV_PYTHON else command[0])} exited {result.returncode}]")
        lines.extend(line for line in result.stdout.splitlines() if line.strip())
    return lines


def shape(line):
    """The line with its numbers taken out (and runs of spaces, which pad numbers in columns, made one), and the numbers."""
    numbers = [match.group(0) for match in NUMBER.finditer(line)]
    return re.sub(r" +", " ", NUMBER.sub("#", line)), numbers


def value(text):
    return float(text.replace(",", ""))


def merged(rounds):
    """Each line's shape with the median of every number over the rounds (lines matched by shape and occurrence)."""
    lines = []
    seen = {}
    for index, round_lines in enumerate(rounds):
        occurrence = {}
        for line in round_lines:
            key, numbers = shape(line)
            occurrence[key] = occurrence.get(key, 0) + 1
            slot = (key, occurrence[key])
            if slot not in seen:
                seen[slot] = len(lines)
                lines.append({"key": key, "text": line, "numbers": [[] for _ in numbers]})
            entry = lines[seen[slot]]
            if len(entry["numbers"]) == len(numbers):
                for column, number in zip(entry["numbers"], numbers):
                    column.append(number)
    for entry in lines:
        entry["median"] = [statistics.median(value(number) for number in column) if column else None for column in entry["numbers"]]
        entry["sample"] = [column[0] if column else "" for column in entry["numbers"]]
    return lines


def render(number, sample):
    """A median as its sample was written: as many decimals, thousands grouped when they were."""
    decimals = len(sample.split(".")[1]) if "." in sample else 0
    return f"{number:,.{decimals}f}" if "," in sample else f"{number:.{decimals}f}"


def ratio(base, now):
    if base == 0:
        return "×—" if now != 0 else "×1"
    return f"×{now / base:.3f}"


def label(key):
    """The words before the line's first number or colon, to pair a line whose wording changed."""
    return re.split(r"[#:]", key, maxsplit=1)[0].strip()


def compare(base_rounds, head_rounds):
    base = merged(base_rounds)
    head = merged(head_rounds)
    used = set()
    by_key = {}
    for index, entry in enumerate(base):
        by_key.setdefault(entry["key"], []).append(index)
    by_label = {}
    for index, entry in enumerate(base):
        by_label.setdefault(label(entry["key"]), []).append(index)
    out = []
    for entry in head:
        # Of BASE's lines of the same shape, the one that shares most numbers with this one (the same figure at
        # another size printed in another order), the first of them on a tie.
        candidates = [index for index in by_key.get(entry["key"], []) if index not in used]
        match = max(
            candidates, default=None,
            key=lambda index: (sum(a == b for a, b in zip(base[index]["sample"], entry["sample"])), -index))
        if match is None:
            match = next((index for index in by_label.get(label(entry["key"]), []) if index not in used and label(entry["key"])), None)
        if match is None:
            out.append(f"  (only now) {entry['text']}")
            continue
        used.add(match)
        parts = entry["key"].split("#")
        base_parts = base[match]["key"].split("#")
        text = parts[0]
        # Numbers pair up while the words before them agree; where the wording parts (a target met or not), the
        # rest is this tree's, and BASE's line is shown below it.
        agree = parts[0] == base_parts[0]
        for position, (now, sample) in enumerate(zip(entry["median"], entry["sample"])):
            shown = render(now, sample)
            before = base[match]["median"][position] if agree and position < len(base[match]["median"]) else None
            if before is None or now is None or before == now:
                text += shown
            else:
                text += f"{render(before, base[match]['sample'][position])}→{shown} ({ratio(before, now)})"
            text += parts[position + 1]
            agree = agree and position + 1 < len(base_parts) and parts[position + 1] == base_parts[position + 1]
        out.append("  " + text)
        if entry["key"] != base[match]["key"]:
            out.append(f"    (BASE: {base[match]['text']})")
    for index, entry in enumerate(base):
        if index not in used:
            out.append(f"  (only in BASE) {entry['text']}")
    return out


# This tree's files that BASE's bench is built with too, so both trees are measured by the same code: the instruction
# counts' scenarios and the decode+apply figures of record (a fresh process per run), each with the call main.swift
# makes to run its commands.
SHARED_FILES = {"InstructionCounts.swift": "try runInstructionCountCommand()", "DecodeRuns.swift": "try runDecodeCommand()"}


def shared_base_bench(base_commit):
    """BASE's sources with this tree's shared bench files in them, built; None when those do not compile against BASE."""
    copy = os.path.join(ROOT, ".build-compare", base_commit[:12] + "-counts")
    if not os.path.exists(os.path.join(copy, "Package.swift")):
        os.makedirs(copy, exist_ok=True)
        archive = subprocess.Popen(["git", "archive", base_commit], cwd=ROOT, stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", copy], stdin=archive.stdout, check=True)
        archive.wait()
    # BASE's own helpers (the generated recordings, trees and snapshots) build the inputs.
    bench = os.path.join(copy, "Benchmarks", "coordlens-bench")
    main_swift = os.path.join(bench, "main.swift")
    text = open(main_swift).read()
    anchor = "let wanted = Set(CommandLine.arguments.dropFirst())"
    for name, call in SHARED_FILES.items():
        shutil.copy(os.path.join(ROOT, "Benchmarks", "coordlens-bench", name), bench)
        if call not in text:
            if anchor not in text:
                say("BASE's coordlens-bench/main.swift has no place for the shared commands: no shared figures for BASE")
                return None
            text = text.replace(anchor, call + "\n" + anchor, 1)
    open(main_swift, "w").write(text)
    try:
        binaries = build(copy, os.path.join(copy, ".build-bench"), ["coordlens-bench"])
    except RuntimeError:
        say("this tree's shared bench files do not compile against BASE's sources: no shared figures for BASE")
        return None
    return os.path.join(binaries, "coordlens-bench")


def print_counts(base_bench, head_bench):
    """bench-check's figures of both builds, per operation, with the ratio."""
    checker = os.path.join(ROOT, "scripts", "bench_check.py")
    figures = []
    for bench in (base_bench, head_bench):
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            result = subprocess.run([sys.executable, checker, "show", bench, "--json", out.name], cwd=ROOT, capture_output=True, text=True)
            if result.returncode != 0:
                sys.stderr.write(result.stdout + result.stderr)
                return
            figures.append(json.load(open(out.name)))
    base, head = figures
    print("\ninstruction counts per operation (bench-check's scenarios, callgrind), base→now (×now/base):")
    def shown(value):
        return f"{value:,.1f}" if value < 100_000 else f"{value:,.0f}"

    for name in head:
        if name in base:
            print(f"  {name:<20} {shown(base[name]):>15} → {shown(head[name]):>15}  ({ratio(base[name], head[name])})")
        else:
            print(f"  {name:<20} {'-':>15} → {shown(head[name]):>15}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the revision to compare with (a commit, tag or branch)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of both benches, in turn (medians are shown)")
    parser.add_argument("--no-browser", action="store_true", help="leave out the page-latency and flood benches")
    parser.add_argument("--counts", action="store_true", help="also bench-check's instruction counts of both")
    parser.add_argument("bench_args", nargs="*", help="coordlens-bench's figures to run (default: all, as make bench)")
    arguments = parser.parse_args()
    try:
        base_commit = git("rev-parse", "--verify", arguments.base + "^{commit}")
    except subprocess.CalledProcessError:
        parser.error(f"no commit {arguments.base}")
    head_commit = git("rev-parse", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    browser = not arguments.no_browser and not arguments.bench_args

    base_tree = worktree_for(base_commit)
    products = ["coordlens-bench", "coordlens"] if browser or not arguments.bench_args else ["coordlens-bench"]
    # `drain` starts a release coordlens from the bench's own folder.
    if any(argument.startswith("drain") for argument in arguments.bench_args):
        products = ["coordlens-bench", "coordlens"]
    try:
        base_binaries = build(base_tree, os.path.join(base_tree, ".build-bench"), products)
        head_binaries = build(ROOT, os.path.join(ROOT, ".build-bench"), products)
    except RuntimeError as error:
        say(str(error))
        return 1
    # The decode+apply figures of record run in BASE through this tree's DecodeRuns.swift: BASE's own bench may measure
    # them another way (before, five runs back to back in one process).
    decode = not arguments.bench_args or "decode" in arguments.bench_args
    base_shared = shared_base_bench(base_commit) if decode or arguments.counts else None

    stamp = time.strftime("%Y%m%d-%H%M%S")
    log_path = os.path.join(ROOT, ".build-compare", f"log-{stamp}.txt")
    base_rounds, head_rounds = [], []
    with open(log_path, "w") as log:
        for round_number in range(arguments.rounds):
            say(f"round {round_number + 1} of {arguments.rounds}: BASE's bench")
            base_lines = run_side(base_tree, base_binaries, arguments.bench_args, browser, log)
            if decode and base_shared:
                base_lines += run_side(base_tree, os.path.dirname(base_shared), ["decode-figures"], False, log)
            base_rounds.append(base_lines)
            say(f"round {round_number + 1} of {arguments.rounds}: this tree's bench")
            head_rounds.append(run_side(ROOT, head_binaries, arguments.bench_args, browser, log))

    subject = git("log", "-1", "--format=%s", base_commit)[:70]
    print()
    print(f"BASE {base_commit[:9]} ({subject})")
    print(f"NOW  {head_commit[:9]}{' with uncommitted changes' if dirty else ''}")
    print(f"{arguments.rounds} round(s), BASE then NOW in turn; a number that differs is base→now (×now/base)"
          + (", the median of its rounds" if arguments.rounds > 1 else "") + f"; raw output in {os.path.relpath(log_path, ROOT)}")
    for line in compare(base_rounds, head_rounds):
        print(line)

    if arguments.counts and base_shared:
        print_counts(base_shared, os.path.join(head_binaries, "coordlens-bench"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
