#!/usr/bin/env python3
"""The live inspector in a real browser.

Starts the demo with the inspector (`switchyard-demo --inspect --inspect-wait N`), reads the URL it
prints, and opens the page in headless Chromium (Debian's `chromium` and `chromium-driver`, driven by
selenium) while the demo's modules make their calls. It checks:

- the shop module's per-stage diffs: the header HeadersStage added, the signature field SigningStage
  added, the Authorization header the AuthorizationStage added, redacted;
- the vault module's plaintext-versus-ciphertext stages: the Encryption stage turns a JSON body into
  one of another type;
- a retried call's attempts (the control module's /flaky call: attempt 1 and attempt 2 at least);
- an event stream's reconnection (the assistant's answer, dropped and resumed: "reconnection 1");
- that the page, its event stream and its HAR export refuse requests without the token (403);
- that no secret of the demo's fixtures (tokens, keys — read from Samples/) appears in the page's
  HTML (with every call opened), the event stream's bytes, or the HAR export;
- that Clear empties the list and the export.

It saves two screenshots (the list; one call's timeline) and prints their paths.

    python3 Tests/Inspector/inspector_browser_test.py --demo .build/debug/switchyard-demo --out /tmp/inspector-shots

Without chromium, chromedriver or selenium it prints why and exits 0 (skipped), unless
SWITCHYARD_REQUIRE_REAL_SERVERS=1, when it fails.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def skip_or_fail(reason):
    if os.environ.get("SWITCHYARD_REQUIRE_REAL_SERVERS") == "1":
        print(f"FAIL: {reason}")
        sys.exit(1)
    print(f"SKIPPED: {reason} (install chromium, chromium-driver and selenium to run it)")
    sys.exit(0)


def fixture_secrets():
    """The demo's secrets, read from the sample backend's sources: keys, tokens, refresh tokens."""
    secrets = set()
    for name in ("SampleBackend.swift", "ShopModule.swift", "UsersModule.swift"):
        with open(os.path.join(ROOT, "Samples", "SampleBackend", name), encoding="utf-8") as handle:
            text = handle.read()
        secrets.update(re.findall(r'Array\("([^"]+)"\.utf8\)', text))          # the AES and HMAC keys
        secrets.update(re.findall(r'static let \w*[Tt]oken = "(?:Bearer )?([^"]+)"', text))
    secrets.update(["shop-token-1", "shop-token-2", "shop-token-3"])         # issued by ShopModule.refresh
    assert len(secrets) >= 6, secrets
    return sorted(secrets)


def fetch(url, method="GET"):
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class Demo:
    """The demo process, its output collected by a thread; stopped by pid."""

    def __init__(self, path, wait):
        self.lines = []
        self.process = subprocess.Popen([path, "--inspect", "--inspect-wait", str(wait)], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, cwd=ROOT, start_new_session=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, pattern, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for line in list(self.lines):
                match = re.search(pattern, line)
                if match:
                    return match
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"the demo never printed {pattern!r}; its output:\n" + "\n".join(self.lines[-40:]))

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)


class EventCapture:
    """The raw bytes of the inspector's event stream, read by a thread until the stream ends."""

    def __init__(self, url):
        self.data = bytearray()
        self.status = None
        threading.Thread(target=self._read, args=(url,), daemon=True).start()

    def _read(self, url):
        try:
            with urllib.request.urlopen(url, timeout=300) as response:
                self.status = response.status
                while True:
                    chunk = response.read1(65536)
                    if not chunk:
                        return
                    self.data.extend(chunk)
        except Exception as error:  # the demo stopping ends the stream
            self.data.extend(f"\n[capture ended: {type(error).__name__}]".encode())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--demo", required=True, help="the built switchyard-demo executable")
    parser.add_argument("--out", default="/tmp/switchyard-inspector-screenshots", help="where the screenshots go")
    arguments = parser.parse_args()

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
    if not chromium or not driver_path:
        skip_or_fail("no chromium or chromedriver on PATH")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        skip_or_fail("the selenium Python package is not installed")

    secrets = fixture_secrets()
    os.makedirs(arguments.out, exist_ok=True)
    demo = Demo(arguments.demo, wait=240)
    driver = None
    try:
        url = demo.wait_for(r"Inspector: (http://127\.0\.0\.1:\d+/[0-9a-f]{64}/)", 120).group(1)
        origin = re.match(r"(http://127\.0\.0\.1:\d+)/", url).group(1)
        token = url.rstrip("/").rsplit("/", 1)[1]
        events = EventCapture(url + "events")

        # Without the token (missing, altered, cut short), every route answers 403 with no body.
        wrong = token[:-1] + ("0" if token[-1] != "0" else "1")
        for path in ["/", "/events", "/session.har", "/inspector.js", f"/{wrong}/", f"/{wrong}/events",
                     f"/{wrong}/session.har", f"/{token[:-1]}/"]:
            status, body = fetch(origin + path)
            assert status == 403 and body == b"", f"{path} answered {status} {body[:80]!r} without the token"
        status, _ = fetch(origin + f"/{wrong}/clear", method="POST")
        assert status == 403, f"clear without the token answered {status}"
        print("without the token: page, event stream, HAR export, assets and clear refused with 403")

        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1700,1300"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        driver.get(url)

        def rows(service=None):
            selector = "tr.call" + (f'[data-service="{service}"]' if service else "")
            return driver.find_elements(By.CSS_SELECTOR, selector)

        # Wait for the tour to reach the streamed module: its reconnection is among the last calls.
        WebDriverWait(driver, 240, poll_frequency=0.5).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, 'tr.call[data-service="assistant"] .badge.reconnection'))
        demo.wait_for(r"The inspector stays open", 120)
        time.sleep(1)  # the last entries' frames
        assert driver.find_element(By.ID, "connection").text == "live"
        services = {row.get_attribute("data-service") for row in rows()}
        for service in ("users", "vault", "shop", "control", "assistant"):
            assert service in services, f"no {service} call listed; listed: {sorted(services)}"
        list_shot = os.path.join(arguments.out, "inspector-list.png")
        driver.save_screenshot(list_shot)

        def open_call(row):
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
            row.click()
            WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "detail").is_displayed())
            return driver.find_element(By.ID, "detail")

        def changes(detail, stage):
            """The change rows of one stage: (direction, part, lower-cased name, kind, value)."""
            found = []
            for box in detail.find_elements(By.CSS_SELECTOR, f'.stage[data-stage="{stage}"]'):
                for tr in box.find_elements(By.CSS_SELECTOR, "tr.change"):
                    found.append((tr.get_attribute("data-direction"), tr.get_attribute("data-part"),
                                  tr.get_attribute("data-name").lower(), tr.get_attribute("data-kind"),
                                  tr.find_element(By.CSS_SELECTOR, ".value").text, tr))
            return found

        # The shop module's signed, authorised call: the per-stage diffs.
        timeline_shot = None
        shop_checked = False
        for row in rows("shop"):
            detail = open_call(row)
            headers = changes(detail, "Headers")
            signing = changes(detail, "Signing")
            authorization = changes(detail, "Authorization")
            if not (headers and signing and authorization):
                continue
            assert any(c[1] == "header" and c[2] == "x-app-version" and c[3] == "added" and c[4] == "2.1.0" for c in headers), headers
            assert any(c[1] == "header" and c[2] == "x-switchyard-signature" and c[3] == "added" for c in signing), signing
            signature = next(c for c in signing if c[2] == "x-switchyard-signature")
            assert "<redacted>" in signature[4], f"the signature is shown: {signature[4]!r}"
            token_change = next(c for c in authorization if c[2] == "authorization")
            assert token_change[3] in ("added", "changed") and "<redacted>" in token_change[4], token_change[:5]
            assert "header Authorization" in detail.text or "header authorization" in detail.text.lower()
            assert detail.find_element(By.ID, "curl").text.startswith("curl -X ")
            # The order rules the signing stage obeys, as registry.pipeline(for:) lists them.
            signing_rules = [box.text for box in detail.find_elements(By.CSS_SELECTOR, '.stage[data-stage="Signing"] .rules')]
            assert signing_rules and all(text.startswith("obeys: inside") for text in signing_rules), signing_rules
            driver.execute_script("arguments[0].scrollIntoView({block: 'start'})", detail)
            timeline_shot = os.path.join(arguments.out, "inspector-timeline.png")
            driver.save_screenshot(timeline_shot)
            shop_checked = True
            break
        assert shop_checked, "no shop call showed the Headers, Authorization and Signing stages' changes"
        print("shop: X-App-Version added by Headers, X-Switchyard-Signature added by Signing (redacted), Authorization added, redacted;"
              " Signing's order rules shown")

        # The vault module: plaintext before the Encryption stage, ciphertext after it.
        vault_checked = False
        for row in rows("vault"):
            detail = open_call(row)
            bodies = [c for c in changes(detail, "Encryption") if c[1] == "body"]
            for change in bodies:
                before, after = change[5].get_attribute("data-before-type"), change[5].get_attribute("data-after-type")
                if change[0] == "request" and "json" in before and "json" not in after:
                    vault_checked = True
            if vault_checked:
                break
        assert vault_checked, "no vault call showed the Encryption stage turning a JSON body into ciphertext"
        print("vault: the Encryption stage's request body goes from JSON (plaintext) to ciphertext")

        # The retried call: /flaky answered 503 twice, then 200.
        retried = [row for row in rows("control") if "/flaky/" in row.text]
        assert retried, "no /flaky call listed"
        detail = open_call(retried[0])
        attempts = [section.get_attribute("data-attempt") for section in detail.find_elements(By.CSS_SELECTOR, "section.attempt")]
        assert "1" in attempts and "2" in attempts, f"attempts shown: {attempts}"
        print(f"retried call: attempts {', '.join(attempts)} shown")

        # The event stream's reconnection.
        reconnected = driver.find_elements(By.CSS_SELECTOR, 'tr.call[data-service="assistant"] .badge.reconnection')
        assert any(badge.text == "reconnection 1" for badge in reconnected), [badge.text for badge in reconnected]
        first = next(badge for badge in reconnected if badge.text == "reconnection 1")
        detail = open_call(first.find_element(By.XPATH, "./ancestor::tr"))
        assert detail.find_element(By.ID, "detail-reconnection").text.startswith("reconnection 1")
        print("event stream: the resumed connection is shown as reconnection 1")

        # No secret anywhere: the page's HTML with each call opened, the event stream, the export.
        for index in range(len(rows())):
            open_call(rows()[index])
            html = driver.page_source
            leaked = [secret for secret in secrets if secret in html]
            assert not leaked, f"the page's HTML shows {leaked}"
        status, export = fetch(url + "session.har")
        assert status == 200 and b'"entries"' in export
        stream = bytes(events.data)
        assert events.status == 200 and b"event: entry" in stream, stream[:200]
        for name, data in (("event stream", stream), ("HAR export", export)):
            leaked = [secret for secret in secrets if secret.encode() in data]
            assert not leaked, f"the {name} shows {leaked}"
        print(f"no fixture secret ({len(secrets)} checked) in the page's HTML ({len(rows())} calls opened), "
              f"the event stream ({len(stream)} bytes) or the HAR export ({len(export)} bytes)")

        # Pause holds new entries back; Clear empties the list and the inspector's own recorder.
        driver.find_element(By.ID, "pause").click()
        assert driver.find_element(By.ID, "pause").text.startswith("Resume")
        driver.find_element(By.ID, "pause").click()
        driver.find_element(By.ID, "clear").click()
        WebDriverWait(driver, 10).until(lambda d: not rows())
        status, export = fetch(url + "session.har")
        assert status == 200 and b'"entries" : [\n\n    ]' in export or b'"entries" : []' in export, export[:300]
        print("clear: the list and the export are empty")

        print(f"screenshot (list): {list_shot}")
        print(f"screenshot (timeline): {timeline_shot}")
        print("inspector browser test: passed")
    finally:
        if driver is not None:
            driver.quit()
        demo.stop()


if __name__ == "__main__":
    main()
