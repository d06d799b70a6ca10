"""`make bench`: 200 inspector pages polling `coordlens listen` while a hook streams one big session.

A producer streams a session to 127.0.0.1 (a prefill of PREFILL events, then RATE events a second for the whole run);
READERS clients each keep an event stream (`/api/events`) open and poll `/api/sessions`, `/api/model` and `/api/tree`
of that session in turn, as the page does, asking for gzip as a browser does and, as the page does, naming the answer
it holds (`If-None-Match`, answered 304 when nothing newer was built; CONDITIONAL=0: never), for DURATION seconds. Prints per endpoint
the answers by status, the share of 503s and p50/p99/max latency, the bytes of one model answer (plain and gzip), and
listen's peak resident memory, against the targets: 0 % 503 on /api/sessions and /api/events, /api/model p99 < 2 s,
RSS < 500 MB. Bounded: READERS connections, DURATION seconds, 127.0.0.1 only.
"""
import asyncio
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

READERS = int(os.environ.get("READERS", 200))
DURATION = float(os.environ.get("DURATION", 30))
PREFILL = int(os.environ.get("PREFILL", 100_000))
RATE = int(os.environ.get("RATE", 2_000))
READ_BUFFER = 4 << 20
CONDITIONAL = os.environ.get("CONDITIONAL", "1") != "0"
MODEL_P99_TARGET = 2.0
RSS_TARGET_MB = 500
RUN = "readers-bench"


def start_listen(binary):
    log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
    process = subprocess.Popen([binary, "listen", "--port", "0", "--http-port", "0"], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 20
    while time.time() < deadline:
        text = open(log.name).read()
        hook = re.search(r"coordlens listening on \S+:(\d+)", text)
        page = re.search(r"Inspector: http://[^:]+:(\d+)/", text)
        if hook and page:
            return process, int(hook.group(1)), int(page.group(1)), log.name
        time.sleep(0.05)
    raise SystemExit("coordlens listen did not start:\n" + open(log.name).read())


def resident_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0


class Producer:
    """A session of coordinators in a tree three levels deep, some removed and deinited, as a hook would stream it."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port))
        self.seq = 0
        self.next_id = 1
        self.stop = threading.Event()
        self.sent = 0
        self.socket.sendall(f'{{"event":"session","v":1,"app":"Readers","run":"{RUN}"}}\n'.encode())

    def lines(self, count):
        out = []
        for _ in range(count):
            self.seq += 1
            t = self.seq / 10_000
            kind = self.seq % 10
            if self.next_id < 4 or kind < 6:
                ident = self.next_id
                self.next_id += 1
                parent = "" if ident == 1 else f',"parent":{max(1, ident // 50)}'
                out.append(f'{{"seq":{self.seq},"t":{t:.4f},"event":"add","id":{ident},"type":"Flow{ident % 40}Coordinator"{parent},'
                           f'"file":"App/Flow{ident % 40}.swift","line":{ident % 300},"function":"start()"}}')
            elif kind < 8:
                out.append(f'{{"seq":{self.seq},"t":{t:.4f},"event":"dismiss","id":{max(2, self.next_id - 7)}}}')
            else:
                out.append(f'{{"seq":{self.seq},"t":{t:.4f},"event":"deinit","id":{max(2, self.next_id - 11)}}}')
        return ("\n".join(out) + "\n").encode()

    def prefill(self):
        while self.sent < PREFILL:
            self.socket.sendall(self.lines(min(5_000, PREFILL - self.sent)))
            self.sent = self.seq

    def stream(self):
        while not self.stop.is_set():
            started = time.monotonic()
            self.socket.sendall(self.lines(RATE // 10))
            self.sent = self.seq
            time.sleep(max(0, 0.1 - (time.monotonic() - started)))


async def read_body(reader, length):
    """Reads `length` bytes and drops them (a count is all the bench keeps); raises if the stream ends first."""
    left = length
    while left > 0:
        chunk = await reader.read(min(left, READ_BUFFER))
        if not chunk:
            raise asyncio.IncompleteReadError(b"", left)
        left -= len(chunk)
    return length


async def request(port, target, stats, held):
    """One request as the page makes it: gzip accepted, and `If-None-Match` with the tag of the answer it holds."""
    started = time.monotonic()
    status = 0
    size = 0
    try:
        # A big read buffer: with asyncio's 64 KiB one, reading a 2.5 MB answer took hundreds of wake-ups, and the
        # client's one thread, not the server, set the latency it measured.
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, limit=READ_BUFFER), 30)
        condition = f"If-None-Match: {held[target]}\r\n" if target in held else ""
        writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept-Encoding: gzip\r\n{condition}Connection: close\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
        status = int(head.split(b" ", 2)[1])
        tag = re.search(rb"(?i)\r\netag: ([^\r]+)", head)
        if tag and status == 200 and CONDITIONAL:
            held[target] = tag.group(1).decode()
        length = re.search(rb"(?i)content-length: (\d+)", head)
        if length:
            size = await asyncio.wait_for(read_body(reader, int(length.group(1))), 60)
        writer.close()
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
        status = 0
    endpoint = target.split("?")[0]
    stats.setdefault(endpoint, []).append((status, time.monotonic() - started, size))


async def feed(port, stats, until):
    """An event stream held open, as each page keeps one; reconnected when closed. Counts its answers' statuses."""
    while time.monotonic() < until:
        started = time.monotonic()
        status = 0
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            await writer.drain()
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
            status = int(head.split(b" ", 2)[1])
            stats.setdefault("/api/events", []).append((status, time.monotonic() - started, 0))
            while time.monotonic() < until:
                chunk = await asyncio.wait_for(reader.read(65536), max(0.1, until - time.monotonic()))
                if not chunk:
                    break
            writer.close()
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
            if status == 0:
                stats.setdefault("/api/events", []).append((0, time.monotonic() - started, 0))
        await asyncio.sleep(0.5)


async def reader_loop(port, stats, until, index):
    await asyncio.sleep(index * 0.005)
    held = {}
    while time.monotonic() < until:
        for target in ("/api/sessions", f"/api/model?run={RUN}", f"/api/tree?run={RUN}"):
            await request(port, target, stats, held)
        await asyncio.sleep(0.2)


async def readers(port, until):
    stats = {}
    tasks = [asyncio.create_task(reader_loop(port, stats, until, i)) for i in range(READERS)]
    tasks += [asyncio.create_task(feed(port, stats, until)) for _ in range(READERS)]
    await asyncio.gather(*tasks)
    return stats


def percentile(values, share):
    if not values:
        return 0
    values = sorted(values)
    return values[min(len(values) - 1, int(share * len(values)))]


def main(binary):
    process, hook_port, page_port, log = start_listen(binary)
    peak = [0.0]
    sampling = threading.Event()

    def sample():
        while not sampling.is_set():
            peak[0] = max(peak[0], resident_mb(process.pid))
            time.sleep(0.05)

    threading.Thread(target=sample, daemon=True).start()
    try:
        producer = Producer(hook_port)
        producer.prefill()
        streaming = threading.Thread(target=producer.stream, daemon=True)
        streaming.start()
        until = time.monotonic() + DURATION
        stats = asyncio.run(readers(page_port, until))
        producer.stop.set()
        streaming.join()
        sampling.set()
        sizes = [size for status, _, size in stats.get("/api/model", []) if status == 200]
        print(f"readers: {READERS} pages polling{'' if CONDITIONAL else ' (unconditionally)'} for {DURATION:.0f} s while a hook streams ({PREFILL:,} events first, then {RATE:,}/s: "
              f"{producer.sent:,} events in all); listen's peak RSS {peak[0]:.0f} MB (target < {RSS_TARGET_MB} MB)")
        for endpoint in ("/api/sessions", "/api/events", "/api/model", "/api/tree"):
            answers = stats.get(endpoint, [])
            by_status = {}
            for status, _, _ in answers:
                by_status[status] = by_status.get(status, 0) + 1
            busy = 100 * by_status.get(503, 0) / max(1, len(answers))
            times = [seconds for status, seconds, _ in answers if status in (200, 304)]
            print(f"  {endpoint:14} {len(answers):6} answers {dict(sorted(by_status.items()))}; 503: {busy:.1f} %; "
                  f"p50 {percentile(times, 0.5):.3f} s, p99 {percentile(times, 0.99):.3f} s, max {max(times, default=0):.3f} s")
        if sizes:
            print(f"  one /api/model answer: {max(sizes) / 1e6:.1f} MB as sent (gzip)")
        model = [seconds for status, seconds, _ in stats.get("/api/model", []) if status in (200, 304)]
        busy = sum(1 for endpoint in ("/api/sessions", "/api/events") for status, _, _ in stats.get(endpoint, []) if status == 503)
        verdict = busy == 0 and percentile(model, 0.99) < MODEL_P99_TARGET and peak[0] < RSS_TARGET_MB
        print(f"  targets: {'met' if verdict else 'MISSED'}")
    finally:
        sampling.set()
        process.terminate()
        process.wait(timeout=20)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: readers.py PATH/TO/coordlens")
    main(sys.argv[1])
