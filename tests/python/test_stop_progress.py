"""Stopping a solve and its progress from Python: the GIL is released while
C++ runs, Ctrl-C raises KeyboardInterrupt within one iteration with the best
point as exc.result, Solver.request_stop from another thread, the time
limit inside the setup, and the verbose/log progress lines."""

import os
import pathlib
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np

import fcsn
from lattice_problem import lattice

HERE = pathlib.Path(__file__).resolve().parent
ROW = re.compile(r"^ *(newton|nsgs) +(\d+) ")

# Newton from v = 0, r = 0 with a tolerance it cannot meet, on the 12 x 12 x 4
# lattice with the dense LU: each iteration (one dense factorization of J,
# n + m = 2,160) takes about 0.6 s on an idle machine, and the solve ends at
# its round-off floor after about 6 of them, seconds after the tests below
# stop it. (With the sparse solver the 40 x 40 x 4 lattice reaches that floor
# in about 0.7 s: too soon for a signal sent by another, loaded, process.)
LONG = dict(solver="nsn", cold_start="zero", tolerance=1e-300,
            max_iterations=1000, linear_solver={"type": "dense"})
LONG_LATTICE = (12, 12, 4)
# The same without the dense LU, for a setup long enough to be interrupted:
# about 0.8 s on the 60 x 60 x 4 lattice (n = 43,200) on an idle machine.
SETUP_LONG = dict(solver="nsn", cold_start="zero", tolerance=1e-300,
                  max_iterations=1000)
SETUP_LATTICE = (60, 60, 4)
# A child started from a non-interactive shell's background job inherits
# SIGINT ignored (POSIX), and Python then keeps it ignored: the children below
# take the handler an interactive Python has.
DEFAULT_SIGINT = "signal.signal(signal.SIGINT, signal.default_int_handler)"


def test_the_gil_is_released_during_the_setup():
    problem = lattice(*SETUP_LATTICE)
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.002)

    thread = threading.Thread(target=tick)
    thread.start()
    try:
        start = time.monotonic()
        result = fcsn.solve(*problem, solver="nsn", cold_start="zero",
                            tolerance=1e-8)
    finally:
        done.set()
        thread.join()
    # No Python callback runs before the first iterate is recorded: a thread
    # that ticks during the setup ran while C++ held no GIL.
    setup_end = start + result.history[0].seconds
    during = [t for t in ticks if start + 0.05 < t < setup_end - 0.05]
    assert result.history[0].seconds > 0.2, "setup too short to tell"
    assert len(during) >= 3, (len(during), result.history[0].seconds)


def test_request_stop_from_another_thread():
    problem = lattice(*LONG_LATTICE)
    solver = fcsn.Solver(**LONG)
    first = threading.Event()

    def on_iteration(record):
        first.set()

    solver.options = fcsn.make_options(solver.options,
                                       iteration_callback=on_iteration)
    stopper = threading.Thread(
        target=lambda: first.wait(60) and solver.request_stop())
    stopper.start()
    result = solver.solve(*problem)
    stopper.join()
    assert result.status == "aborted", result.message
    assert "stopped on request" in result.message
    assert np.isfinite(result.v).all() and np.isfinite(result.r).all()


def test_ctrl_c_raises_keyboard_interrupt_with_the_result():
    child = textwrap.dedent(f"""
        import signal, sys, time
        {DEFAULT_SIGINT}
        sys.path.insert(0, {str(HERE)!r})
        import numpy as np
        import fcsn
        from lattice_problem import lattice
        problem = lattice(*{LONG_LATTICE!r})
        def ready(record):
            if record.iteration == 0:
                print("ready", flush=True)
        try:
            fcsn.solve(*problem, iteration_callback=ready, **{LONG!r})
            print("finished without interruption", flush=True)
        except KeyboardInterrupt as exc:
            r = exc.result
            print("interrupted", r.status, r.iterations,
                  bool(np.isfinite(r.v).all() and np.isfinite(r.r).all()),
                  flush=True)
        """)
    process = subprocess.Popen([sys.executable, "-c", child],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=os.environ.copy())
    try:
        assert process.stdout.readline().strip() == "ready"
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    # Within one iteration (a few tenths of a second; generous here).
    assert time.monotonic() - sent < 30
    words = out.split()
    assert words[:2] == ["interrupted", "aborted"], out + err
    assert int(words[2]) <= 3 and words[3] == "True", out


def test_ctrl_c_during_the_setup_stops_it_there():
    # The setup of SETUP_LATTICE takes about 0.8 s on an idle machine;
    # SIGINT lands in it, long before the first iterate.
    child = textwrap.dedent(f"""
        import signal, sys
        {DEFAULT_SIGINT}
        sys.path.insert(0, {str(HERE)!r})
        import numpy as np
        import fcsn
        from lattice_problem import lattice
        problem = lattice(*{SETUP_LATTICE!r})
        print("starting", flush=True)
        try:
            fcsn.solve(*problem, **{SETUP_LONG!r})
            print("finished without interruption", flush=True)
        except KeyboardInterrupt as exc:
            r = exc.result
            print("interrupted", r.status, len(r.history),
                  bool(np.isfinite(r.v).all() and np.isfinite(r.r).all()),
                  flush=True)
        """)
    process = subprocess.Popen([sys.executable, "-c", child],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=os.environ.copy())
    try:
        assert process.stdout.readline().strip() == "starting"
        # Past the Python-side conversion of the arguments (a SIGINT there is
        # a plain KeyboardInterrupt, no solve having started: a loaded
        # machine took more than 0.05 s), well inside the setup.
        time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    words = out.split()
    assert words == ["interrupted", "aborted", "0", "True"], out + err


def test_time_limit_ends_the_solve_inside_the_setup():
    problem = lattice(40, 40, 4)
    start = time.monotonic()
    result = fcsn.solve(*problem, time_limit_seconds=1e-3)
    assert time.monotonic() - start < 1e-3 + 5.0
    assert result.status == "time-limit", result.message
    assert result.iterations == 0 and not result.history
    assert np.isfinite(result.v).all() and np.isfinite(result.r).all()


def test_progress_log_is_off_by_default_and_one_row_per_iteration(capsys):
    problem = lattice(6, 5, 2)
    result = fcsn.solve(*problem, solver="nsn", cold_start="zero")
    assert result.converged and capsys.readouterr().out == ""
    assert fcsn.SolverOptions().log is None

    lines = []
    logged = fcsn.solve(*problem, solver="nsn", cold_start="zero",
                        log=lines.append)
    rows = [ROW.match(line) for line in lines]
    rows = [(m.group(1), int(m.group(2))) for m in rows if m]
    assert lines[0].startswith("setup: ")
    assert lines[-1].startswith("end: converged")
    assert rows == [("newton", h.iteration) for h in logged.history]
    assert [i for _, i in rows] == sorted(i for _, i in rows)

    verbose = fcsn.solve(*problem, solver="nsn", cold_start="zero",
                         verbose=True)
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].startswith("end: converged")
    assert sum(1 for line in printed if ROW.match(line)) == len(
        verbose.history)


def test_log_errors_are_raised_with_the_result():
    problem = lattice(6, 5, 2)

    def broken(line):
        raise RuntimeError("from the log")

    try:
        fcsn.solve(*problem, solver="nsn", log=broken)
    except RuntimeError as exc:
        assert "from the log" in str(exc)
        assert exc.result.converged
    else:
        raise AssertionError("the log's exception was not raised")


def test_a_solver_runs_one_call_at_a_time():
    problem = lattice(6, 5, 2)
    solver = fcsn.Solver(solver="nsn")

    def change_options(record):
        solver.options = fcsn.make_options(tolerance=1e-6)

    solver.options = fcsn.make_options(solver="nsn",
                                       iteration_callback=change_options)
    try:
        solver.solve(*problem)
    except RuntimeError as exc:
        assert "running a solve" in str(exc)
        assert np.isfinite(exc.result.v).all()
    else:
        raise AssertionError("changing the options mid-solve was allowed")
