"""Runs the fuzz targets of fuzz/targets.py on the instrumented engine.

It builds the engine under AddressSanitizer, UBSan and libFuzzer coverage
(fuzz/build.py, incremental), then runs each target in its own Python process with
atheris' ASan+libFuzzer runtime preloaded, the committed seed corpus fuzz/corpus/TARGET
as input, new inputs written to a scratch corpus and crash inputs to a crash folder. It
prints the executions per target and exits 1 if any target found anything.

    python fuzz/run.py --all --seconds 3600              # a long run of every target
    python fuzz/run.py words options --runs 20000        # some targets, a number of inputs
    python fuzz/run.py --all --seconds 10 --parallel 2   # one target per core
    python fuzz/run.py words --reproduce CRASH_FILE      # run one input again, with its report
    python fuzz/run.py --python -- -c "import diabolo"   # any Python under the same set-up

Everything it writes goes under --work (default build/fuzz-work): corpus/TARGET (inputs
that found new coverage), logs/TARGET.log, crashes/ (unless --crash-dir), tmp/TARGET.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

import build  # fuzz/build.py: this script's folder is the first entry of sys.path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

TARGETS_SCRIPT = HERE / "targets.py"
CORPUS = HERE / "corpus"
DEFAULT_WORK = ROOT / "build" / "fuzz-work"
ATHERIS_HINT = "pip install atheris==3.0.0"


@dataclass
class Result:
    """What one target's run did."""

    target: str
    status: str = "ok"  # ok, or what was found: crash, sanitizer, python-exception, timeout, oom, killed, error
    executions: int = 0
    seconds: float = 0.0
    exec_per_second: float = 0.0
    new_inputs: int = 0
    crash_files: list[str] = field(default_factory=list)
    log: str = ""
    summary: str = ""


def atheris_runtime() -> Path:
    """atheris' ASan runtime with libFuzzer (asan_with_fuzzer.so), found without importing
    atheris (that would load its own libFuzzer into this process)."""
    spec = importlib.util.find_spec("atheris")
    if spec is None or spec.origin is None:
        raise SystemExit(f"fuzz/run.py: atheris is not installed: {ATHERIS_HINT}")
    runtime = Path(spec.origin).resolve().parent.parent / "asan_with_fuzzer.so"
    if not runtime.is_file():
        raise SystemExit(f"fuzz/run.py: {runtime} is missing; reinstall atheris: {ATHERIS_HINT}")
    return runtime


def fuzz_environment(build_dir: Path, scratch: Path | None = None, ignore: Sequence[str] = ()) -> dict[str, str]:
    """The environment of a Python process that runs the instrumented engine."""
    env = dict(os.environ)
    if ignore:
        env["DIABOLO_FUZZ_IGNORE"] = "|".join(f"(?:{pattern})" for pattern in ignore)
    env["LD_PRELOAD"] = str(atheris_runtime())
    # Python frees not all of its memory at exit, so leak checks would report every run.
    env["ASAN_OPTIONS"] = ":".join(filter(None, ["detect_leaks=0", os.environ.get("ASAN_OPTIONS", "")]))
    env["UBSAN_OPTIONS"] = ":".join(
        filter(None, ["halt_on_error=1:print_stacktrace=1", os.environ.get("UBSAN_OPTIONS", "")])
    )
    symbolizer = shutil.which("llvm-symbolizer-14") or shutil.which("llvm-symbolizer")
    if symbolizer and "ASAN_SYMBOLIZER_PATH" not in env:
        env["ASAN_SYMBOLIZER_PATH"] = symbolizer
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(build_dir), os.environ.get("PYTHONPATH", "")]))
    env["DIABOLO_FUZZ_BUILD"] = str(build_dir)
    if scratch is not None:
        env["DIABOLO_FUZZ_SCRATCH"] = str(scratch)
    return env


def list_targets(build_dir: Path) -> list[str]:
    result = subprocess.run(
        [sys.executable, str(TARGETS_SCRIPT), "--list"],
        env=fuzz_environment(build_dir),
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        raise SystemExit(f"fuzz/run.py: cannot load the targets:\n{result.stdout}{result.stderr}")
    return result.stdout.split()


def classify(log: str) -> str:
    """What a failed run's log reports."""
    if "ERROR: libFuzzer: timeout" in log:
        return "timeout"
    if "out-of-memory" in log or "ERROR: libFuzzer: malloc" in log:
        return "oom"
    if "Uncaught Python exception" in log:
        return "python-exception"
    if "runtime error:" in log or re.search(r"ERROR: (Address|Undefined)Sanitizer", log):
        return "sanitizer"
    return "crash"


def executions(log: str) -> int:
    """The inputs run, from libFuzzer's final statistics or its last progress line."""
    for pattern in (r"stat::number_of_executed_units:\s*(\d+)", r"Done (\d+) runs"):
        found = re.findall(pattern, log)
        if found:
            return int(found[-1])
    progress = re.findall(r"^#(\d+)\s", log, flags=re.MULTILINE)
    return int(progress[-1]) if progress else 0


def summarise(log: str) -> str:
    """The part of a log that says what was found: the Python traceback, or the
    sanitizer's or libFuzzer's report (at most 60 lines)."""
    lines = log.splitlines()
    start = next(
        (
            i
            for i, line in enumerate(lines)
            if re.search(
                r"Uncaught Python exception|ERROR: (Address|Undefined|Leak)Sanitizer|runtime error:|ERROR: libFuzzer",
                line,
            )
        ),
        None,
    )
    if start is None:
        return "\n".join(lines[-20:])
    end = next(
        (
            i
            for i in range(start + 1, len(lines))
            if lines[i].startswith("SUMMARY:") or "ERROR: libFuzzer: fuzz target exited" in lines[i]
        ),
        len(lines) - 1,
    )
    return "\n".join(lines[start : min(end + 1, start + 60)])


def run_target(name: str, args: argparse.Namespace, work: Path, crash_dir: Path, extra: Sequence[str]) -> Result:
    corpus = work / "corpus" / name
    scratch = work / "tmp" / name
    logs = work / "logs"
    for folder in (corpus, scratch, logs, crash_dir):
        folder.mkdir(parents=True, exist_ok=True)
    before = len(list(corpus.iterdir()))
    command = [
        sys.executable,
        str(TARGETS_SCRIPT),
        name,
        "-print_final_stats=1",
        f"-timeout={args.timeout}",
        f"-rss_limit_mb={args.rss_limit_mb}",
        f"-artifact_prefix={crash_dir}/{name}-",
    ]
    if args.runs is not None:
        command.append(f"-runs={args.runs}")
    if args.seconds is not None:
        command.append(f"-max_total_time={args.seconds}")
    dictionary = HERE / "dicts" / f"{name}.dict"
    if dictionary.is_file():
        command.append(f"-dict={dictionary}")
    command += list(extra)
    if args.reproduce:
        command += [str(Path(f).resolve()) for f in args.reproduce]
    else:
        command += [str(corpus), *([str(CORPUS / name)] if (CORPUS / name).is_dir() else [])]
    log_path = logs / f"{name}.log"
    result = Result(name, log=str(log_path))
    deadline = (args.seconds or 0) + args.grace
    started = time.monotonic()
    with open(log_path, "w") as log_file:
        log_file.write(" ".join(command) + "\n")
        log_file.flush()
        process = subprocess.Popen(
            command,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            cwd=scratch,
            env=fuzz_environment(args.build_dir, scratch, args.ignore),
        )
        try:
            code = process.wait(timeout=deadline if args.runs is None or args.seconds else None)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            code = -9
    result.seconds = round(time.monotonic() - started, 1)
    log = log_path.read_text(errors="replace")
    result.executions = executions(log)
    rate = re.findall(r"stat::average_exec_per_sec:\s*(\d+)", log)
    result.exec_per_second = (
        float(rate[-1]) if rate and int(rate[-1]) else round(result.executions / max(result.seconds, 0.1), 1)
    )
    result.new_inputs = len(list(corpus.iterdir())) - before
    result.crash_files = re.findall(r"Test unit written to (\S+)", log)
    if code == -9:
        result.status = "killed"
        result.summary = f"still running after {deadline} s: killed (a hang outside libFuzzer's -timeout?)"
    elif code != 0:
        result.status = classify(log)
        result.summary = summarise(log)
    return result


def print_result(result: Result, verbose: bool) -> None:
    print(
        f"{result.target:20} {result.status:16} {result.executions:>10} runs {result.seconds:>8.1f} s "
        f"{result.exec_per_second:>8.0f}/s {result.new_inputs:>5} new",
        flush=True,
    )
    if result.status != "ok" or verbose:
        for crash in result.crash_files:
            print(f"    input: {crash}")
        print(f"    log: {result.log}")
        if result.summary:
            print("    " + result.summary.replace("\n", "\n    "), flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("targets", nargs="*", help="targets to run (see --list)")
    parser.add_argument("--all", action="store_true", help="run every target")
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    parser.add_argument("--runs", type=int, help="inputs to run per target")
    parser.add_argument("--seconds", type=int, help="seconds per target (default 60 when --runs is not given)")
    parser.add_argument("--parallel", type=int, default=1, help="targets run at once (default 1)")
    parser.add_argument(
        "--build-dir", type=Path, default=build.DEFAULT_OUT, help="instrumented build (default build/fuzz)"
    )
    parser.add_argument("--no-build", action="store_true", help="use the build as it is")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2, help="parallel compiles of the build")
    parser.add_argument("--cxx", help="C++ compiler for the build (default clang++-14)")
    parser.add_argument(
        "--work", type=Path, default=DEFAULT_WORK, help="scratch corpus, logs (default build/fuzz-work)"
    )
    parser.add_argument("--crash-dir", type=Path, help="where crash inputs go (default WORK/crashes)")
    parser.add_argument("--timeout", type=int, default=20, help="seconds one input may take before it is a hang")
    parser.add_argument("--rss-limit-mb", type=int, default=4096, help="memory one target may use")
    parser.add_argument("--grace", type=int, default=300, help="seconds past --seconds before a target is killed")
    parser.add_argument("--report", type=Path, help="write the results as JSON here")
    parser.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="REGEX",
        help="exceptions whose 'Type: message' matches are not findings (to look past a known one)",
    )
    parser.add_argument("--reproduce", nargs="+", metavar="FILE", help="run these inputs once (one target)")
    parser.add_argument("--verbose", "-v", action="store_true", help="print the log summary of every target")
    parser.add_argument("--python", nargs=argparse.REMAINDER, help="run python with these arguments under the set-up")
    args, extra = parser.parse_known_args(argv)
    extra = [a for a in extra if a != "--"]
    if any(not a.startswith("-") for a in extra):
        parser.error(f"unknown arguments: {' '.join(extra)} (libFuzzer options start with '-')")

    args.build_dir = args.build_dir.resolve()
    atheris_runtime()  # fail early, naming the install
    if not args.no_build:
        build.build(args.build_dir, args.jobs, args.cxx)
    if args.python is not None:
        python_args = [a for a in args.python if a != "--"] if args.python[:1] == ["--"] else args.python
        return subprocess.call([sys.executable, *python_args], env=fuzz_environment(args.build_dir))

    available = list_targets(args.build_dir)
    if args.list:
        print("\n".join(available))
        return 0
    names = available if args.all else args.targets
    unknown = [n for n in names if n not in available]
    if not names or unknown:
        parser.error(
            f"name targets or use --all; {'unknown: ' + ', '.join(unknown) + '; ' if unknown else ''}"
            f"the targets are: {', '.join(available)}"
        )
    if args.reproduce and len(names) != 1:
        parser.error("--reproduce runs the inputs of one target")
    if args.runs is None and args.seconds is None and not args.reproduce:
        args.seconds = 60
    work = args.work.resolve()
    crash_dir = (args.crash_dir or work / "crashes").resolve()

    if args.reproduce:
        limit = f"the {len(args.reproduce)} input(s) given"
    else:
        limit = (f"{args.runs} runs" if args.runs is not None else f"{args.seconds} s") + " each"
    print(
        f"fuzz/run.py: {len(names)} target(s), {limit}, {args.parallel} at a time; logs in {work / 'logs'}",
        flush=True,
    )
    with ThreadPoolExecutor(max_workers=max(1, args.parallel)) as pool:
        futures = [pool.submit(run_target, name, args, work, crash_dir, extra) for name in names]
        results = []
        for future in futures:
            results.append(future.result())
            print_result(results[-1], args.verbose or bool(args.reproduce))
    total = sum(r.executions for r in results)
    failed = [r for r in results if r.status != "ok"]
    print(
        f"fuzz/run.py: {total} executions in all; "
        + (f"FOUND SOMETHING in {', '.join(r.target for r in failed)}" if failed else "nothing found")
    )
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps([asdict(r) for r in results], indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
