"""`make bench`: what `coordlens listen` keeps in memory for sessions that have ended.

Streams SESSIONS sessions of EVENTS events each into one `listen`, one after another, each ended and disconnected,
and prints listen's resident memory once each has been taken in (after 1, 2, 4), then after they are evicted
(`--evict-after EVICT` seconds), against the target: under 600 MB after four 1,000,000-event sessions. Each session is
an app's life as the hook streams it: coordinators added under a few parents, bound to a screen, dismissed, removed and
freed (five events each), with a mark now and then. Bounded: SESSIONS × EVENTS lines, to 127.0.0.1 only.
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

SESSIONS = int(os.environ.get("SESSIONS", 4))
EVENTS = int(os.environ.get("EVENTS", 1_000_000))
EVICT = float(os.environ.get("EVICT", 20))
TARGET_MB = 600


def start_listen(binary):
    log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
    process = subprocess.Popen([binary, "listen", "--port", "0", "--http-port", "0", "--evict-after", str(EVICT)],
                               stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 20
    while time.time() < deadline:
        text = open(log.name).read()
        hook = re.search(r"coordlens listening on \S+:(\d+)", text)
        if hook:
            return process, int(hook.group(1)), log.name
        time.sleep(0.05)
    raise SystemExit("coordlens listen did not start:\n" + open(log.name).read())


def resident_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def session_lines(run, events):
    yield f'{{"event":"session","v":1,"app":"Ended","run":"{run}"}}\n'
    seq = 0
    ident = 1
    batch = []

    def line(text):
        nonlocal seq
        seq += 1
        return f'{{"seq":{seq},"t":{seq / 20_000:.5f},{text}}}'

    batch.append(line('"event":"add","id":1,"type":"AppCoordinator","file":"App/App.swift","line":10,"function":"start()"'))
    while seq < events - 1:
        ident += 1
        parent = 1 + (ident % 7 == 0) * (ident // 7 % 50)
        parent = parent if parent < ident else 1
        flow = ident % 60
        site = f'"file":"App/Flow{flow}.swift","line":{20 + flow},"function":"showFlow{flow}()"'
        batch.append(line(f'"event":"add","id":{ident},"type":"Flow{flow}Coordinator","parent":{parent},{site}'))
        batch.append(line(f'"event":"bind","id":{ident},"screen":"Flow{flow}ViewController"'))
        if ident % 97 == 0:
            batch.append(line(f'"event":"mark","label":"round {ident // 97}"'))
        if ident % 11:
            batch.append(line(f'"event":"dismiss","id":{ident},"via":"screen-left"'))
            batch.append(line(f'"event":"remove","id":{ident},"parent":{parent},{site}'))
            batch.append(line(f'"event":"deinit","id":{ident}'))
        if len(batch) >= 5_000:
            yield "\n".join(batch) + "\n"
            batch = []
    batch.append(line('"event":"end"'))
    yield "\n".join(batch) + "\n"


def stream(port, run):
    with socket.create_connection(("127.0.0.1", port)) as connection:
        for chunk in session_lines(run, EVENTS):
            connection.sendall(chunk.encode())


def wait_for(log, pattern, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if re.search(pattern, open(log).read()):
            return True
        time.sleep(0.1)
    return False


def settled_mb(pid, seconds=3):
    """Resident memory once it stops moving (the recorder and the judging have caught up)."""
    last = resident_mb(pid)
    deadline = time.time() + seconds
    while time.time() < deadline:
        time.sleep(0.5)
        now = resident_mb(pid)
        if abs(now - last) < 2:
            return now
        last = now
    return last


def main(binary):
    process, port, log = start_listen(binary)
    try:
        start = resident_mb(process.pid)
        figures = []
        for index in range(SESSIONS):
            run = f"ended-{index}"
            stream(port, run)
            if not wait_for(log, rf"{run} \[ended\]", 120):
                raise SystemExit(f"{run} did not end:\n" + open(log).read()[-2000:])
            # listen compacts a finished session's events within a second or two of its end.
            time.sleep(2.5)
            figures.append((index + 1, settled_mb(process.pid)))
        deadline = time.time() + EVICT + 60
        while open(log).read().count("evicted from memory") < SESSIONS and time.time() < deadline:
            time.sleep(0.5)
        evicted = settled_mb(process.pid)
        print(f"ended sessions: {SESSIONS} sessions of {EVENTS:,} events each, one after another into one listen "
              f"(RSS {start:.0f} MB at start)")
        for count, mb in figures:
            if count in (1, 2, 4) or count == SESSIONS:
                print(f"  after {count} ended: RSS {mb:.0f} MB")
        print(f"  after eviction ({EVICT:.0f} s without a connection): RSS {evicted:.0f} MB")
        four = dict(figures).get(4)
        if four is not None:
            print(f"  target: under {TARGET_MB} MB after four: {'met' if four < TARGET_MB else 'MISSED'}")
    finally:
        process.terminate()
        process.wait(timeout=20)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: ended_sessions.py PATH/TO/coordlens")
    main(sys.argv[1])
