"""The browser tests' one wait outside the page (CONTRIBUTING.md, "Before you push"): on what the test expects, with a
generous deadline, never for a fixed time. Inside the page, Playwright's own waits (`wait_for_selector`,
`wait_for_function`, `expect`) are the event waits. `scripts/sleep-lint.sh` allows a sleep here and where a `# clock:`
comment says the clock is what the test is about."""
import time


def wait_until(condition, timeout=20, interval=0.05):
    """Calls `condition` every `interval` seconds until it returns something true or `timeout` seconds pass; returns
    that value, or the last one (checked once more at the deadline)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    return condition()
