"""Runs coordlens and the sample apps as real processes and drives the system Chromium against the inspector page."""
import atexit
import collections
import json
import os
import re
import subprocess
import tempfile
import unittest

from playwright.sync_api import sync_playwright

from wait_until import wait_until

BIN = os.environ.get("COORDLENS_BIN") or subprocess.run(
    ["swift", "build", "--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


class Process:
    """A coordlens command in the background whose output lines are read from a file as they come."""

    def __init__(self, *args, prefix=()):
        self.log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
        self.process = subprocess.Popen([*prefix, os.path.join(BIN, "coordlens"), *args], stdout=self.log, stderr=subprocess.STDOUT)

    def wait_for(self, pattern, timeout=20):
        def output():
            with open(self.log.name) as text:
                return text.read()

        # A process that ended says nothing more: the wait ends with it.
        wait_until(lambda: re.search(pattern, output()) or self.process.poll() is not None, timeout)
        match = re.search(pattern, output())
        if match:
            return match
        raise AssertionError(f"no {pattern!r} in coordlens output:\n{output()}")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        os.unlink(self.log.name)


def listen(*extra):
    """`coordlens listen` on free ports; returns (process, hook port, page URL)."""
    process = Process("listen", "--port", "0", "--http-port", "0", *extra)
    hook = int(process.wait_for(r"coordlens listening on \S+:(\d+)").group(1))
    url = process.wait_for(r"Inspector: (http://\S+)").group(1)
    return process, hook, url


def view(*files):
    """`coordlens view FILE…` on a free port; returns (process, page URL)."""
    process = Process("view", "--http-port", "0", *files)
    return process, process.wait_for(r"Inspector: (http://\S+)").group(1)


def run_sample(name, hook_port):
    subprocess.run([os.path.join(BIN, name), "--tcp", f"127.0.0.1:{hook_port}"], check=True, capture_output=True, timeout=60)


def coordlens(*args):
    """Runs coordlens to completion; returns (exit status, standard output)."""
    done = subprocess.run([os.path.join(BIN, "coordlens"), *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout


# Pages opened by the test that runs now: what a failure saves (save_artifacts).
PAGES_OF_THIS_TEST = []
ARTIFACTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".build", "test-artifacts")


def save_artifacts(test):
    """A failed or erroring test's pages, for the next look at a race: a screenshot, the DOM, the page's state
    (`window.coordlensState`), its errors and its last requests, under .build/test-artifacts/<test id>-<n>.*"""
    os.makedirs(ARTIFACTS, exist_ok=True)
    name = re.sub(r"[^\w.-]+", "_", test.id())
    for number, page in enumerate(PAGES_OF_THIS_TEST):
        base = os.path.join(ARTIFACTS, f"{name}-{number}")
        try:
            if page.is_closed():
                continue
            page.screenshot(path=base + ".png", full_page=True, timeout=5000)
            with open(base + ".html", "w") as out:
                out.write(page.content())
            state = page.evaluate("""() => { try { return JSON.stringify(window.coordlensState, (key, value) =>
                value instanceof Map ? Object.fromEntries(value) : value instanceof Set ? [...value] : value, 1); }
                catch (error) { return String(error); } }""")
            with open(base + ".json", "w") as out:
                json.dump({"url": page.url, "state": state, "errors": page.errors, "failedRequests": page.failed_requests,
                           "requests": list(page.requests)}, out, indent=1)
        except Exception as error:  # A page that cannot be saved says why, beside the others.
            with open(base + ".error.txt", "w") as out:
                out.write(f"{type(error).__name__}: {error}\n")


def _saving(original):
    def record(self, test, error):
        if PAGES_OF_THIS_TEST:
            save_artifacts(test)
        return original(self, test, error)
    return record


def _starting(original):
    def start(self, test):
        PAGES_OF_THIS_TEST.clear()
        return original(self, test)
    return start


# Every browser test module imports this one: its failures and errors save their pages before the class tears down.
unittest.TestResult.addFailure = _saving(unittest.TestResult.addFailure)
unittest.TestResult.addError = _saving(unittest.TestResult.addError)
unittest.TestResult.startTest = _starting(unittest.TestResult.startTest)


class _Chromium:
    """The one headless Chromium of the test process, started by the first test that needs it and closed at exit: a
    launch (Playwright's driver, then the browser) took about a second, once for each of 35 test classes. Each page
    still has a browser context of its own (Browser.new_page makes one), so no test sees another's cookies, storage,
    permissions or cache."""

    playwright = None
    browser = None

    @classmethod
    def shared(cls):
        if cls.browser is None or not cls.browser.is_connected():
            if cls.playwright is None:
                cls.playwright = sync_playwright().start()
                atexit.register(cls.stop)
            args = ["--no-sandbox"] if os.geteuid() == 0 else []
            cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        return cls.browser

    @classmethod
    def stop(cls):
        if cls.browser is not None:
            cls.browser.close()
        if cls.playwright is not None:
            cls.playwright.stop()
        cls.browser = cls.playwright = None


class _PagesOf:
    """The shared browser as one user of it sees it: `new_page` as Playwright's, and every page it made is closed, with
    its context, when that user is done, so a live page of an ended test stops asking a server that is gone."""

    def __init__(self, browser):
        self._browser = browser
        self.pages = []

    def new_page(self, **options):
        page = self._browser.new_page(**options)
        self.pages.append(page)
        return page

    def close_pages(self):
        for page in self.pages:
            try:
                page.context.close()
            except Exception:  # a page whose browser went away is closed already
                pass
        self.pages.clear()

    def __getattr__(self, name):
        return getattr(self._browser, name)


class Browser:
    """The shared headless Chromium, for a test class or one test; pages record console errors and uncaught
    exceptions, and are closed (each with its own context) when it exits."""

    def __enter__(self):
        self.browser = _PagesOf(_Chromium.shared())
        return self

    def page(self, url, viewport=None):
        page = self.browser.new_page(viewport=viewport or {"width": 1440, "height": 900})
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
        # Requests that got no answer at all (a refused or cut connection), for a failing test's message.
        page.failed_requests = []
        page.on("requestfailed", lambda request: page.failed_requests.append(f"{request.url}: {request.failure}"))
        # The last requests and their answers, for a failing test's artifacts.
        page.requests = collections.deque(maxlen=50)
        page.on("response", lambda response: page.requests.append(
            f"{response.request.method} {response.url} {response.status} {response.headers.get('x-lens-judged', '')}".rstrip()))
        PAGES_OF_THIS_TEST.append(page)
        page.goto(url)
        return page

    def __exit__(self, *exc):
        self.browser.close_pages()


def write_recording(lines):
    handle = tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False)
    for line in lines:
        handle.write(json.dumps(line) + "\n")
    handle.close()
    return handle.name


IP = next((path for path in ("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip") if os.access(path, os.X_OK)), None)


class NetworkNamespace:
    """A test host of its own: a namespace joined to this one by a veth pair in 10.231.0.0/16 (root and iproute2)."""

    unavailable = "network namespaces need root" if os.geteuid() != 0 else None if IP else "no ip command (iproute2)"

    def __init__(self):
        tag = f"{os.getpid() % 100000}p"
        self.name, outside, inside = f"clens{tag}", f"cla{tag}", f"clb{tag}"
        subnet = f"10.231.{(os.getpid() + 7) % 250}"
        self.outside_address, self.inside_address = f"{subnet}.1", f"{subnet}.2"
        self.outside_link = outside
        for step in (["netns", "add", self.name], ["link", "add", outside, "type", "veth", "peer", "name", inside],
                     ["link", "set", inside, "netns", self.name], ["addr", "add", f"{self.outside_address}/30", "dev", outside],
                     ["link", "set", outside, "up"],
                     ["netns", "exec", self.name, "ip", "addr", "add", f"{self.inside_address}/30", "dev", inside],
                     ["netns", "exec", self.name, "ip", "link", "set", inside, "up"],
                     ["netns", "exec", self.name, "ip", "link", "set", "lo", "up"]):
            subprocess.run([IP, *step], check=True, capture_output=True, timeout=20)

    def prefix(self):
        return (IP, "netns", "exec", self.name)

    def remove(self):
        subprocess.run([IP, "link", "delete", self.outside_link], capture_output=True, timeout=20)
        subprocess.run([IP, "netns", "delete", self.name], capture_output=True, timeout=20)


class ViewedRecording(unittest.TestCase):
    """`coordlens view` over the recording a subclass makes, with one browser for the class."""

    view_arguments = ()

    @classmethod
    def make_recording(cls):
        raise NotImplementedError

    @classmethod
    def setUpClass(cls):
        cls.file = cls.make_recording()
        cls.viewer, cls.url = view(cls.file, *cls.view_arguments)
        cls.browser = Browser().__enter__()

    @classmethod
    def tearDownClass(cls):
        cls.browser.__exit__(None, None, None)
        cls.viewer.stop()
        os.unlink(cls.file)
