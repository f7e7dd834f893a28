#!/usr/bin/env python3
"""OpenAPI generation benchmark: switchyard-gen against swift-openapi-generator on one large document.

In one run on this machine:
  1. builds `switchyard-gen` (release, from the repository's root package) and swift-openapi-generator's
     CLI `swift-openapi-generator` (release, from Benchmarks/OpenAPIGeneratorTool, which depends on
     apple/swift-openapi-generator from 1.14.0);
  2. writes a synthetic OpenAPI document with make_openapi_document.py (--operations, --schemas, --seed);
  3. times generation (median of --generate-runs): `switchyard-gen generate DOC --swift OUT.swift` and
     `swift-openapi-generator generate --mode types --mode client --config CONFIG --output-directory DIR DOC`;
  4. times compiling each output: each goes into the only target of a small package in the work directory
     (ours depends on the Switchyard checkout by path, theirs on swift-openapi-runtime; each on exactly
     what its generated files import). The dependencies are built first, with stubs under the generated
     files' names; then the generated files are put in place and `swift build --target T` runs, in the
     configuration given (debug unless --configuration release). The compile figure is the time from the
     start of the first swift-frontend process compiling the target to the exit of the last one (its
     compile and emit-module jobs, as /proc shows them), so SwiftPM's own work — loading the package
     graph, which is larger on our side, and planning — is left out; the whole `swift build` and a
     no-op rebuild are printed beside it.
  5. measures each compile's peak memory by polling /proc every 20 ms for the swift-frontend processes
     whose command line names the target's sources: the peak is the larger of the highest sum of their
     resident sizes (VmRSS) at one instant and the highest single process's VmHWM (the kernel's own
     high-water mark, exact for that process even between polls). swift build runs frontends in parallel
     (emit-module beside the compile jobs, and one compile job per batch of files), so the sum is what
     the machine must hold. GNU time's %M (when /usr/bin/time exists) is printed as a cross-check: the
     largest single process of the build's tree, swift-build included, not a sum.

Prints, with N the operation count:
  switchyard-gen generate ops=N <s> s
  openapi-generator generate ops=N <s> s
  switchyard-gen compile ops=N <s> s
  switchyard-gen compile ops=N peak <MiB> MiB
  openapi-generator compile ops=N <s> s
  openapi-generator compile ops=N peak <MiB> MiB
and a few indented detail lines. When switchyard-gen rejects the document, the runner says so, measures
the other side all the same, and exits 1.

Usage:
  Benchmarks/Scripts/openapi_generation_bench.py [--operations N] [--schemas M] [--seed S]
      [--openapi 3.0.3|3.1.0] [--quick] [--configuration debug|release] [--generate-runs R]
      [--work-dir DIR] [--repo DIR]
--quick is --operations 60 --schemas 40. The work directory (default $TMPDIR/switchyard-openapi-bench)
keeps the document, the outputs, the compile packages and their logs; dependency builds stay there
between runs. --repo measures the switchyard-gen and Switchyard of another checkout (a branch not yet
merged, say) against the same swift-openapi-generator. Python 3 standard library only; needs swift (or
/opt/swift/usr/bin).
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.dirname(SCRIPTS)
REPO = os.path.dirname(BENCHMARKS)
TOOL_PACKAGE = os.path.join(BENCHMARKS, "OpenAPIGeneratorTool")

# A module generated code imports, other than Switchyard's own and the system's -> (package URL, identity, lowest version).
MODULES = {
    "OpenAPIRuntime": ("https://github.com/apple/swift-openapi-runtime.git", "swift-openapi-runtime", "1.8.0"),
    "HTTPTypes": ("https://github.com/apple/swift-http-types.git", "swift-http-types", "1.3.0"),
}
SYSTEM_MODULES = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Swift", "_Concurrency"}


TICKS = os.sysconf("SC_CLK_TCK")


class BenchmarkError(Exception):
    pass


def log(message):
    print(message, flush=True)


def detail(message):
    print("    " + message, flush=True)


def run(command, cwd, log_path, env=None):
    """Runs a command with its output in log_path; returns seconds taken. Raises with the log's tail on failure."""
    with open(log_path, "w", encoding="utf-8") as out:
        start = time.monotonic()
        result = subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env)
        elapsed = time.monotonic() - start
    if result.returncode != 0:
        with open(log_path, encoding="utf-8", errors="replace") as handle:
            tail = handle.read()[-4000:]
        raise BenchmarkError("`%s` failed with exit code %d (log: %s):\n%s" % (" ".join(command), result.returncode, log_path, tail))
    return elapsed


def swift_env():
    env = dict(os.environ)
    if shutil.which("swift") is None and os.path.exists("/opt/swift/usr/bin/swift"):
        env["PATH"] = "/opt/swift/usr/bin:" + env.get("PATH", "")
    return env


# -- peak memory of swift-frontend processes --------------------------------------------------------


class FrontendMemoryProbe:
    """Polls /proc for swift-frontend processes whose command line contains `marker`."""

    def __init__(self, marker, interval=0.02):
        self.marker = marker.encode()
        self.interval = interval
        self.hwm = {}  # pid -> highest VmHWM seen, KiB
        self.peak_sum = 0  # highest sum of VmRSS over processes alive at one poll, KiB
        self.peak_concurrent = 0
        self.first_start = None  # seconds since boot when the first matching process started
        self.last_alive = None  # seconds since boot of the last poll that saw one alive
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    @staticmethod
    def _status(pid):
        values = {}
        with open("/proc/%s/status" % pid, "rb") as handle:
            for line in handle:
                if line.startswith((b"VmHWM:", b"VmRSS:")):
                    key, value = line.split(b":", 1)
                    values[key.decode()] = int(value.split()[0])
        return values

    def _poll(self):
        matched = {}  # pid -> bool (whether it is one of ours), so each command line is read once
        while not self._stop.is_set():
            total = 0
            alive = 0
            for pid in os.listdir("/proc"):
                if not pid.isdigit():
                    continue
                try:
                    if pid not in matched:
                        with open("/proc/%s/comm" % pid, "rb") as handle:
                            comm = handle.read().strip()
                        if comm != b"swift-frontend":
                            continue
                        with open("/proc/%s/cmdline" % pid, "rb") as handle:
                            matched[pid] = self.marker in handle.read()
                        if matched[pid]:
                            with open("/proc/%s/stat" % pid, "rb") as handle:
                                started = int(handle.read().rsplit(b")", 1)[1].split()[19]) / TICKS
                            if self.first_start is None or started < self.first_start:
                                self.first_start = started
                    if not matched[pid]:
                        continue
                    values = self._status(pid)
                except (FileNotFoundError, ProcessLookupError, PermissionError):
                    continue
                if "VmRSS" not in values:  # a zombie: nothing resident any more
                    continue
                alive += 1
                total += values["VmRSS"]
                self.hwm[pid] = max(self.hwm.get(pid, 0), values.get("VmHWM", 0))
            if alive:
                self.last_alive = time.clock_gettime(time.CLOCK_BOOTTIME)
            if total > self.peak_sum:
                self.peak_sum = total
            self.peak_concurrent = max(self.peak_concurrent, alive)
            self._stop.wait(self.interval)

    @property
    def span(self):
        """Seconds from the start of the first matching process to the last poll that saw one alive."""
        if self.first_start is None or self.last_alive is None:
            return None
        return self.last_alive - self.first_start

    @property
    def peak_kib(self):
        return max([self.peak_sum] + list(self.hwm.values()))


# -- the compile packages --------------------------------------------------------------------------


def imported_modules(paths):
    modules = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                match = re.match(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public |package |internal )?import (?:struct |class |enum |protocol |func |var |typealias )?(\w+)", line)
                if match and match.group(1) not in modules:
                    modules.append(match.group(1))
    return modules


def write_compile_package(directory, target, modules, repo):
    """A package whose one library target `target` depends on exactly the modules its sources import."""
    packages = {}
    products = []
    for module in modules:
        if module in SYSTEM_MODULES:
            continue
        if module.startswith("Switchyard"):
            packages["Switchyard"] = '.package(name: "Switchyard", path: "%s")' % repo
            products.append('.product(name: "%s", package: "Switchyard")' % module)
        elif module in MODULES:
            url, identity, version = MODULES[module]
            packages[identity] = '.package(url: "%s", from: "%s")' % (url, version)
            products.append('.product(name: "%s", package: "%s")' % (module, identity))
        else:
            raise BenchmarkError("generated code imports %s, which the benchmark does not know how to provide" % module)
    text = (
        "// swift-tools-version:6.0\n"
        "// Written by Benchmarks/Scripts/openapi_generation_bench.py: one target, the generated code.\n"
        "import PackageDescription\n\n"
        "let package = Package(\n"
        '    name: "%s",\n'
        "    platforms: [.macOS(.v15)],\n"
        "    dependencies: [\n%s\n    ],\n"
        "    targets: [\n"
        '        .target(name: "%s", dependencies: [%s])\n'
        "    ]\n"
        ")\n"
    ) % (
        target + "Package",
        ",\n".join("        " + p for p in packages.values()),
        target,
        ", ".join(products),
    )
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "Package.swift")
    old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
    if old != text:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)


def compile_output(name, sources, work, configuration, env, repo=REPO):
    """Builds the dependencies of `sources`, then times and probes the build of the target holding them."""
    target = {"switchyard-gen": "SwitchyardGenerated", "openapi-generator": "OpenAPIGenerated"}[name]
    package = os.path.join(work, "compile-" + name)
    source_dir = os.path.join(package, "Sources", target)
    modules = imported_modules(sources)
    write_compile_package(package, target, modules, repo)
    if os.path.isdir(source_dir):
        shutil.rmtree(source_dir)
    os.makedirs(source_dir)
    build = ["swift", "build", "--package-path", package, "-c", configuration, "--target", target]

    # Dependencies first, with stubs under the generated files' names that import what they import
    # (the same file names, so that putting the real files in place changes no build plan).
    for source in sources:
        with open(os.path.join(source_dir, os.path.basename(source)), "w", encoding="utf-8") as handle:
            handle.write("".join("import %s\n" % m for m in modules))
    run(["swift", "package", "--package-path", package, "resolve"], package, os.path.join(work, name + "-resolve.log"), env=env)
    seconds = run(build, package, os.path.join(work, name + "-dependencies.log"), env=env)
    detail("%s: dependencies built in %.1f s (%s)" % (name, seconds, ", ".join(modules)))

    for source in sources:
        shutil.copy(source, os.path.join(source_dir, os.path.basename(source)))
    compile_log = os.path.join(work, name + "-compile.log")
    # GNU time, when there, as a cross-check: its %M is the largest maximum resident size of any one
    # process of the waited tree (the kernel carries it up through wait4), swift-build included.
    gnu_time = ["/usr/bin/time", "-f", "gnu-time-max-rss-kib %M"] if os.access("/usr/bin/time", os.X_OK) else []
    with FrontendMemoryProbe(os.path.join(package, "Sources", target) + "/") as probe:
        build_seconds = run(gnu_time + build, package, compile_log, env=env)
    with open(compile_log, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    warnings = len(set(re.findall(r"^(/.*?: warning: .*)$", text, re.M)))
    tree_max = re.findall(r"^gnu-time-max-rss-kib (\d+)$", text, re.M)
    noop = run(build, package, os.path.join(work, name + "-noop.log"), env=env)
    largest = max(probe.hwm.values()) if probe.hwm else 0
    if probe.span is None:
        raise BenchmarkError("no swift-frontend process compiled %s (log: %s)" % (target, compile_log))
    return probe.span, probe.peak_kib, {
        "build": build_seconds,
        "noop": noop,
        "warnings": warnings,
        "frontends": len(probe.hwm),
        "concurrent": probe.peak_concurrent,
        "largest": largest,
        "sum": probe.peak_sum,
        "tree": int(tree_max[-1]) if tree_max else None,
        "lines": sum(sum(1 for _ in open(s, encoding="utf-8")) for s in sources),
        "bytes": sum(os.path.getsize(s) for s in sources),
    }


# -- main -----------------------------------------------------------------------------------------


def build_tools(env, work, repo):
    log("== building switchyard-gen and swift-openapi-generator (release)")
    seconds = run(["swift", "build", "-c", "release", "--product", "switchyard-gen"], repo, os.path.join(work, "build-switchyard-gen.log"), env=env)
    detail("switchyard-gen built in %.1f s" % seconds)
    seconds = run(
        ["swift", "build", "-c", "release", "--package-path", TOOL_PACKAGE, "--product", "swift-openapi-generator"],
        TOOL_PACKAGE,
        os.path.join(work, "build-swift-openapi-generator.log"),
        env=env,
    )
    detail("swift-openapi-generator built in %.1f s" % seconds)
    ours = os.path.join(
        subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=repo, env=env, capture_output=True, text=True, check=True).stdout.strip(),
        "switchyard-gen",
    )
    theirs = os.path.join(
        subprocess.run(
            ["swift", "build", "-c", "release", "--package-path", TOOL_PACKAGE, "--show-bin-path"],
            cwd=TOOL_PACKAGE, env=env, capture_output=True, text=True, check=True,
        ).stdout.strip(),
        "swift-openapi-generator",
    )
    return ours, theirs


def timed_runs(command, runs, cwd, log_path, env):
    return statistics.median(run(command, cwd, log_path, env=env) for _ in range(runs))


def main(argv):
    parser = argparse.ArgumentParser(description="switchyard-gen against swift-openapi-generator on a large OpenAPI document")
    parser.add_argument("--operations", type=int, default=None, help="operations in the document (default 500)")
    parser.add_argument("--schemas", type=int, default=None, help="component schemas (default 300, or 0.6 per operation when only --operations is given)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--openapi", default="3.0.3", choices=["3.0.3", "3.1.0"])
    parser.add_argument("--quick", action="store_true", help="a small document: --operations 60 --schemas 40")
    parser.add_argument("--configuration", default="debug", choices=["debug", "release"], help="of the compile (default debug)")
    parser.add_argument("--generate-runs", type=int, default=3, help="generation runs per generator; the median is printed (default 3)")
    parser.add_argument("--work-dir", default=os.path.join(tempfile.gettempdir(), "switchyard-openapi-bench"))
    parser.add_argument("--repo", default=REPO, help="the Switchyard checkout whose switchyard-gen and library are measured (default: this script's)")
    args = parser.parse_args(argv)
    operations = args.operations or (60 if args.quick else 500)
    schemas = args.schemas or (40 if args.quick else (300 if args.operations is None else max(8, round(operations * 0.6))))
    work = os.path.abspath(args.work_dir)
    os.makedirs(work, exist_ok=True)
    env = swift_env()

    repo = os.path.abspath(args.repo)
    ours_bin, theirs_bin = build_tools(env, work, repo)

    log("== document")
    document = os.path.join(work, "Benchmark.openapi.yaml")
    subprocess.run(
        [sys.executable, os.path.join(SCRIPTS, "make_openapi_document.py"), "--operations", str(operations),
         "--schemas", str(schemas), "--seed", str(args.seed), "--openapi", args.openapi, document],
        check=True, stdout=subprocess.DEVNULL,
    )
    detail("%s: OpenAPI %s, %d operations, %d schemas, %d bytes" % (document, args.openapi, operations, schemas, os.path.getsize(document)))
    config = os.path.join(work, "openapi-generator-config.yaml")
    with open(config, "w", encoding="utf-8") as handle:
        handle.write("generate:\n  - types\n  - client\naccessModifier: internal\n")

    log("== generation (median of %d runs each)" % args.generate_runs)
    ours_dir = os.path.join(work, "out-switchyard-gen")
    theirs_dir = os.path.join(work, "out-openapi-generator")
    for directory in (ours_dir, theirs_dir):
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
    ours_source = os.path.join(ours_dir, "BenchmarkAPI.swift")
    ours_failure = None
    try:
        seconds = timed_runs([ours_bin, "generate", document, "--swift", ours_source], args.generate_runs, work,
                             os.path.join(work, "generate-switchyard-gen.log"), env)
        log("switchyard-gen generate ops=%d %.2f s" % (operations, seconds))
    except BenchmarkError as error:
        ours_failure = str(error)
        log("switchyard-gen generate ops=%d FAILED: switchyard-gen rejected the document" % operations)
        for line in ours_failure.splitlines()[:12]:
            detail(line)
    seconds = timed_runs(
        [theirs_bin, "generate", "--mode", "types", "--mode", "client", "--config", config, "--output-directory", theirs_dir, document],
        args.generate_runs, work, os.path.join(work, "generate-openapi-generator.log"), env,
    )
    log("openapi-generator generate ops=%d %.2f s" % (operations, seconds))
    # 1.14 splits Types.swift into several files (Types+Components+Schemas.swift, Types+Operations.swift, …).
    theirs_sources = sorted(os.path.join(theirs_dir, f) for f in os.listdir(theirs_dir) if f.endswith(".swift"))
    detail("openapi-generator wrote " + ", ".join(os.path.basename(f) for f in theirs_sources))

    log("== compile (%s; dependencies built first, then the generated target alone)" % args.configuration)
    results = {}
    sides = [("openapi-generator", theirs_sources)]
    if ours_failure is None:
        sides.insert(0, ("switchyard-gen", [ours_source]))
    failures = []
    for name, sources in sides:
        try:
            seconds, peak, info = compile_output(name, sources, work, args.configuration, env, repo)
        except BenchmarkError as error:
            # Our output failing to compile must not hide the other side's figures.
            log("%s compile ops=%d FAILED" % (name, operations))
            for line in str(error).splitlines()[:30]:
                detail(line)
            failures.append(name + " output did not compile")
            continue
        results[name] = (seconds, peak)
        log("%s compile ops=%d %.2f s" % (name, operations, seconds))
        log("%s compile ops=%d peak %.0f MiB" % (name, operations, peak / 1024))
        detail(
            "%s: %d lines, %d bytes of Swift; %d warnings; %d swift-frontend processes, at most %d at once, "
            "largest %.0f MiB, highest concurrent sum %.0f MiB; the whole `swift build` took %.2f s, "
            "a no-op rebuild %.2f s"
            % (name, info["lines"], info["bytes"], info["warnings"], info["frontends"], info["concurrent"],
               info["largest"] / 1024, info["sum"] / 1024, info["build"], info["noop"])
        )
        if info["tree"] is not None:
            detail("%s: /usr/bin/time's maximum resident size of any one process of the build %.0f MiB"
                   % (name, info["tree"] / 1024))
    if len(results) == 2:
        (ours_s, ours_peak), (theirs_s, theirs_peak) = results["switchyard-gen"], results["openapi-generator"]
        detail("compile time ratio openapi-generator/switchyard-gen %.1fx; peak memory ratio switchyard-gen/openapi-generator %.2f"
               % (theirs_s / ours_s, ours_peak / theirs_peak))
    if ours_failure is not None:
        failures.append("switchyard-gen could not generate from %s (OpenAPI input is issue 17's item 1)" % document)
    if failures:
        log("error: " + "; ".join(failures) + "; measured only: " + (", ".join(results) or "nothing"))
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchmarkError as error:
        print("error: " + str(error), file=sys.stderr)
        sys.exit(1)
