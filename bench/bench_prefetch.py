#!/usr/bin/env python
"""A sweep that downloads the next checkpoint while it measures this one (issue 47, item 2), on the local Hub.

    python bench/bench_prefetch.py                     # the training task's rehearsal checkpoints, slowed downloads
    python bench/bench_prefetch.py --delay 0.05 --measure 2.0

The local Hub (`localhub.LocalHub`, its stand-ins under the real repository names) serves every weight file slowly
(`inject(..., "slow")`: 16 KiB pieces, `--delay` s apart), like a Hub at a modest bandwidth; the measure sleeps
`--measure` s, like a profile on a GPU. The same sweep runs twice from an empty Hub cache, with `prefetch=False` and
with `prefetch=True`, each timed, with the seconds each job spent loading (download included) and measuring. Printed:
both totals, the sum of the load and measure times of the first, and the ratio prefetch / no prefetch. Measured on
2026-11-27 (2 cores, other work beside it; the training task's 135 rehearsal checkpoints, 800 KiB/s, 1 s measures):
no prefetch 380.7 s (loads with their downloads 186.7 s + measures 135.0 s + fingerprints and store 59 s), prefetch
192.4 s (loads from the prefetched cache 12.8 s): 0.51 x. Not a test: never run in CI.
"""
import argparse, shutil, tempfile, time
from pathlib import Path
import pandas as pd


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--delay", type=float, default=0.02, help="seconds between 16 KiB pieces of a weight file")
    ap.add_argument("--measure", type=float, default=1.0, help="seconds the measure takes per checkpoint")
    a = ap.parse_args()
    import shape_of_learning.checkpoints as C
    from shape_of_learning.checkpoints import Measure, sweep
    from shape_of_learning.localhub import LocalHub
    from shape_of_learning.plan import task_entries
    from shape_of_learning.reproduce import get_task
    with LocalHub(progress=False) as hub:
        checkpoints = [e.checkpoint for e in task_entries(get_task("training").config("rehearsal"))]
        hub.inject("model.safetensors", "slow", times=-1, delay=a.delay)
        spent = {}
        def measured(model, tokenizer, ck):
            time.sleep(a.measure); return pd.DataFrame({"checkpoint": [ck.name]})
        load = C._load
        def timed_load(ck, *args, **kwargs):
            t = time.perf_counter()
            try: return load(ck, *args, **kwargs)
            finally: spent.setdefault(prefetch, []).append(time.perf_counter() - t)
        C._load = timed_load
        totals = {}
        for prefetch in (False, True):
            shutil.rmtree(hub.hub_cache, ignore_errors=True)
            t = time.perf_counter()
            sweep(checkpoints, Measure("sleep", measured), tempfile.mkdtemp(), progress=False, duplicates="skip",
                  prefetch=prefetch, verify=True)
            totals[prefetch] = time.perf_counter() - t
        C._load = load
    n = len(spent[False])
    loads = sum(spent[False])
    print(f"{n} checkpoints ({', '.join(ck.name for ck in checkpoints)}), weight files at {16 / a.delay:.0f} KiB/s, "
          f"measure {a.measure:.1f} s each")
    print(f"no prefetch: {totals[False]:6.1f} s   (loads with their downloads {loads:.1f} s + measures {n * a.measure:.1f} s "
          f"= {loads + n * a.measure:.1f} s; the rest: fingerprints, store)")
    print(f"prefetch:    {totals[True]:6.1f} s   (loads from the prefetched cache {sum(spent[True]):.1f} s)")
    print(f"ratio prefetch / no prefetch: {totals[True] / totals[False]:.2f}; the prefetched sweep took "
          f"{totals[True] / (loads + n * a.measure):.2f} x the first sweep's loads + measures")


if __name__ == "__main__":
    main()
