"""What a lost runtime costs: the rehearsal run once without interruption, and once killed part-way and resumed.

    python bench/bench_resume.py                           # every task that reads the Hub, 2,048 tokens per layer
    python bench/bench_resume.py --tasks training,probe_series --kill-at 0.5

Each run is a child process with its own results store and caches (SOL_CACHE, enwik8's copy), from an empty Hub
cache, on the same local Hub: the second arm gains nothing from the first's warm caches (an earlier version shared
them, and a resumed pair then took 0.81 x an uninterrupted run). The interrupted run is killed with SIGKILL after
`kill_at` x the uninterrupted run's time; the resumed run is the same `reproduce` call on its store and caches. The ratio (killed part + resumed part) / uninterrupted is the cost of the
lost runtime: what the killed process had stored is not computed again, what it was doing is.
"""
import argparse, os, shutil, signal, subprocess, sys, tempfile, textwrap, time
from pathlib import Path


def run(tasks, store, n_tokens):
    "The tasks' rehearsal configurations, capped at n_tokens, into `store` (not forced: a resumed run reuses it)."
    from shape_of_learning.localhub import capped
    from shape_of_learning.reproduce import get_task, reproduce
    for name in tasks:
        task = get_task(name)
        reproduce([task], capped(task.config("rehearsal"), n_tokens), out=store / "out", cache=store / "cache",
                  progress=False, verbose=False)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tasks", default=None, help="comma-separated (default: localhub.hub_tasks())")
    p.add_argument("--n-tokens", type=int, default=2048)
    p.add_argument("--kill-at", type=float, default=0.5, help="kill after this fraction of the uninterrupted time")
    a = p.parse_args()
    from shape_of_learning.localhub import LocalHub, hub_tasks
    tasks = a.tasks.split(",") if a.tasks else [t.name for t in hub_tasks()]
    work = Path(tempfile.mkdtemp(prefix="bench-resume-"))
    with LocalHub(progress=False) as hub:
        def arm(name, timeout=None):
            "One run in a fresh process with its own caches (SOL_CACHE, enwik8's copy): every arm starts as cold as the first."
            if name != "resumed": shutil.rmtree(hub.hub_cache, ignore_errors=True)
            folder = work / ("killed" if name == "resumed" else name)
            env = dict(os.environ, SOL_CACHE=str(folder / "sol-cache"), SOL_ENWIK8_CACHE=str(folder / "enwik8-cache"))
            code = textwrap.dedent(f"""
                import sys; sys.path.insert(0, {str(Path(__file__).parent)!r})
                from bench_resume import run
                from pathlib import Path
                run({tasks!r}, Path({str(folder)!r}), {a.n_tokens})
            """)
            log = work / f"{name}.log"
            t0 = time.perf_counter()
            with open(log, "w") as err:                  # a file, not a pipe: a full pipe would stall the child
                proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=err)
                try: proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired: proc.send_signal(signal.SIGKILL); proc.wait()
                else:
                    if proc.returncode: raise RuntimeError(f"the {name} run failed:\n{log.read_text()[-3000:]}")
            return time.perf_counter() - t0
        whole = arm("whole")
        before = arm("killed", timeout=a.kill_at * whole)
        after = arm("resumed")
    print(f"tasks: {', '.join(tasks)} at {a.n_tokens} tokens per layer, {os.cpu_count()} CPUs")
    print(f"uninterrupted:            {whole:7.1f} s")
    print(f"killed after:             {before:7.1f} s ({a.kill_at:.0%} of it)")
    print(f"resumed, to the end:      {after:7.1f} s")
    print(f"lost to the kill:         {before + after - whole:7.1f} s; ratio (killed + resumed) / uninterrupted = "
          f"{(before + after) / whole:.2f}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__": main()
