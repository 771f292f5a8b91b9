"""Benchmark: a probe's fit (`downstream.probe_accuracy`) in one thread against torch's threads, alone and beside a
busy process, over the shapes the package fits (issue 58: where `downstream.ONE_THREAD_MAX` belongs).

Run:  python bench/bench_probes.py [--shapes 40x384x5,400x576x5,...] [--repeat 3]

For each shape n x d x K (features, dimensions, classes; Gaussian classes with a small shift, so L-BFGS or Newton
work as on real features), the seconds of one 5-fold probe in one thread and in torch's threads, alone and with a
busy process (`while True: pass`) started by this script, and the ratio one / torch's (below 1: one thread is
faster). A shape whose n d K is at most ONE_THREAD_MAX runs in one thread in the package; the column `package`
says which. Not a test: never run in CI.
"""
import argparse, os, subprocess, sys, time
import numpy as np, torch
import shape_of_learning.downstream as downstream


def data(n: int, d: int, K: int):
    rng = np.random.default_rng(0)
    y = np.arange(n) % K
    X = rng.standard_normal((n, d))
    X[:, :K] += 1.5 * np.eye(K)[y]
    return X, y


def seconds(X, y, threads: int, repeat: int) -> float:
    "Best of `repeat` 5-fold probes with torch in `threads` threads (the package's own rule switched off)."
    saved_threads, saved_max = torch.get_num_threads(), downstream.ONE_THREAD_MAX
    torch.set_num_threads(threads)
    downstream.ONE_THREAD_MAX = -1
    try:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            downstream.probe_accuracy(X, y, tol=1e-9)
            best = min(best, time.perf_counter() - start)
        return best
    finally:
        torch.set_num_threads(saved_threads)
        downstream.ONE_THREAD_MAX = saved_max


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shapes", default="40x384x5,200x576x2,400x576x5,1000x768x5,2000x768x5,4000x768x2,8000x768x5")
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    shapes = [tuple(int(v) for v in s.split("x")) for s in a.shapes.split(",")]
    threads = torch.get_num_threads()
    print(f"bench_probes  torch {torch.__version__}  threads {threads}  cores (affinity) "
          f"{len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}  load avg {os.getloadavg()[0]:.1f}"
          f"  ONE_THREAD_MAX {downstream.ONE_THREAD_MAX:,}")
    rows = []
    for busy in (False, True):
        p = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if busy else None
        try:
            if p: time.sleep(1)
            for n, d, K in shapes:
                X, y = data(n, d, K)
                one, many = seconds(X, y, 1, a.repeat), seconds(X, y, threads, a.repeat)
                rows.append((busy, n, d, K, one, many))
        finally:
            if p: p.kill()
    print(f"\n{'busy':>5s} {'n x d x K':>16s} {'n d K':>11s} {'1 thread s':>11s} {f'{threads} threads s':>12s} {'ratio':>6s}  package")
    for busy, n, d, K, one, many in rows:
        print(f"{str(busy):>5s} {f'{n}x{d}x{K}':>16s} {n * d * K:11,d} {one:11.3f} {many:12.3f} {one / many:6.2f}  "
              f"{'1 thread' if n * d * K <= downstream.ONE_THREAD_MAX else f'{threads} threads'}")


if __name__ == "__main__":
    main()
