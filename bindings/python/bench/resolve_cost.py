"""resolve_cost: the cost of Root.resolve of a 4-deep path and a close of
its fd, against inroot_resolve and close from C in the same process (the
library BINDINGS_BASELINE names: bench/binding_baseline.c), as a ratio.
Printed, never judged: the numbers are the machine's."""
import ctypes
import os
import statistics
import tempfile
import time

import execveat

PATH, ROUNDS, RUNS = "a/b/c/d", 20000, 7

baseline = ctypes.CDLL(os.environ["BINDINGS_BASELINE"]).binding_baseline_resolve_ns
baseline.restype = ctypes.c_longlong
baseline.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_long]

with tempfile.TemporaryDirectory() as directory:
    os.makedirs(os.path.join(directory, PATH))
    with execveat.Root(directory) as root:
        from_c, from_python = [], []
        for _ in range(RUNS):
            ns = baseline(root.fileno(), PATH.encode(), ROUNDS)
            assert ns >= 0, "inroot_resolve failed"
            from_c.append(ns / ROUNDS)
            start = time.perf_counter_ns()
            for _ in range(ROUNDS):
                root.resolve(PATH).close()
            from_python.append((time.perf_counter_ns() - start) / ROUNDS)
c, p = statistics.median(from_c), statistics.median(from_python)
print(f"python: resolve({PATH!r}) and close: C {c:.0f} ns, Python {p:.0f} ns: "
      f"ratio {p / c:.2f} (medians of {RUNS} runs of {ROUNDS})")
