"""`make bench`: `coordlens listen` under a flood of valid events on one connection.

One connection adds coordinators under one root as fast as this script can write them, for a bounded time. Every
second the script reports how many lines listen took in that second (its intake, from the socket's progress), listen's
resident memory, and how long a page's event feed (`/api/events`) took to send its first message when connected then.
Bounded: at most DURATION seconds and COORDINATORS lines, to 127.0.0.1 only. Prints the figures against the targets:
intake that does not fall as the tree grows, memory bounded by --max-coordinators, the feed's first message < 100 ms.
"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

DURATION = 20
COORDINATORS = 6_000_000
LIMIT = 1_000_000
FEED_TARGET_MS = 100


def start_listen(binary):
    log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
    process = subprocess.Popen([binary, "listen", "--port", "0", "--http-port", "0", "--max-coordinators", str(LIMIT)],
                               stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 20
    while time.time() < deadline:
        text = open(log.name).read()
        hook = re.search(r"coordlens listening on \S+:(\d+)", text)
        page = re.search(r"Inspector: http://[^:]+:(\d+)/", text)
        if hook and page:
            return process, int(hook.group(1)), int(page.group(1))
        time.sleep(0.05)
    raise SystemExit("coordlens listen did not start:\n" + open(log.name).read())


def resident_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def feed_first_message_ms(port):
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        received = b""
        while b"\n\n" not in received.split(b"\r\n\r\n", 1)[-1] or b"\r\n\r\n" not in received:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
    return (time.monotonic() - started) * 1000


def main(binary):
    process, hook, page = start_listen(binary)
    sent = [0]
    stop = threading.Event()

    def flood():
        with socket.create_connection(("127.0.0.1", hook)) as connection:
            connection.sendall(b'{"event":"session","v":1,"app":"Flood","run":"flood"}\n{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}\n')
            seq = 1
            while not stop.is_set() and seq < COORDINATORS:
                batch = []
                for _ in range(2_000):
                    seq += 1
                    batch.append(f'{{"seq":{seq},"t":0.001,"event":"add","id":{seq},"type":"Leaf","parent":1}}\n')
                connection.sendall("".join(batch).encode())
                sent[0] = seq

    writer = threading.Thread(target=flood, daemon=True)
    writer.start()
    rows = []
    last = 0
    started = time.monotonic()
    while time.monotonic() - started < DURATION and writer.is_alive():
        time.sleep(1)
        now = sent[0]
        # A second in which the flood ran out of lines says how much was left, not how fast listen took it.
        whole = now < COORDINATORS
        feed = feed_first_message_ms(page)
        rows.append((now - last, resident_mb(process.pid), feed, now, whole))
        last = now
    stop.set()
    writer.join(10)
    process.terminate()
    process.wait(20)
    print(f"flood of adds on one connection, {len(rows)} s, --max-coordinators {LIMIT:,}:")
    for second, (lines, memory, feed, total, whole) in enumerate(rows, start=1):
        ended = "" if whole else "  (the flood's last lines: not a whole second of intake)"
        print(f"  {second:>2} s: {lines:>9,} lines/s taken, {total:>10,} in all, resident {memory:6.0f} MB, feed's first message {feed:6.1f} ms{ended}")
    intake = [r for r in rows if r[4]]
    third = max(1, len(intake) // 3)
    first, last_rows = intake[:third], intake[-third:]
    early = sum(r[0] for r in first) / max(1, len(first))
    late = sum(r[0] for r in last_rows) / max(1, len(last_rows))
    worst_feed = max(r[2] for r in rows)
    peak = max(r[1] for r in rows)
    if len(intake) < 3:
        print(f"intake: only {len(intake)} whole second(s) before the flood ran out; too few to compare thirds")
    print(f"intake, last third vs first third: {late:,.0f} vs {early:,.0f} lines/s (ratio {late / max(1, early):.2f}; target: no fall, ratio >= 0.8)")
    print(f"feed's first message, worst: {worst_feed:.1f} ms (target < {FEED_TARGET_MS} ms, ratio {worst_feed / FEED_TARGET_MS:.2f})")
    print(f"peak resident memory: {peak:.0f} MB (bounded by --max-coordinators {LIMIT:,})")


if __name__ == "__main__":
    main(sys.argv[1])
