"""Benchmark: `layer_profile` against a bare forward pass over the same tokens (issue 58 targets: every metric <= 2.0x, the issue-13 metrics <= 1.5x, both outlier policies <= 2.8x).

Run:  python bench/bench_profile.py [--model smollm2] [--tokens 16384] [--metrics all|anisotropy,intersim,twonn]

Prints, for the default policies and for the call that computes both outlier policies in one pass:
seconds and multiples of the bare forward pass (`model(ids)`, timed before and after the profiles, the mean of the
two; also the trunk alone, without the LM head, which is what a profile runs), the split of the profile's time
(forward pass with hidden-state extraction, exact kNN, outlier selection, spectra, cosine sums, the massive-activation
ratio, the pair metrics between consecutive layers and everything else),
and peak resident memory.
A third profile measures the metrics of issue 13 alone (the anisotropies, TwoNN, MADA, MoM, the cosines, InterSim
and IntraSim: the profile before issue 32's seven). The last lines are the targets, each `met` or `NOT met` with its
ratio. Not a test: never run in CI.
"""
import argparse, functools, os, resource, time
from collections import defaultdict
from contextlib import contextmanager
import numpy as np, torch
import shape_of_learning.profile as P
import shape_of_learning.engine as E
import shape_of_learning.intrinsic_dim as I
from shape_of_learning.models import load_model
from shape_of_learning.profile import METRICS, DEFAULT_METRICS, ProfileSpec, profile_spec, layer_profile, cached_windows, special_affixes
from shape_of_learning.data import wiki_source

TARGETS = {"every metric": 2.0, "both outlier policies": 2.8, "issue-13 metrics": 1.5}   # x the bare forward pass
ISSUE13 = ("anisotropy", "anisotropy_uncentered", "twonn", "mada", "mom", "avg_cos", "avg_cos_centered", "intersim", "intrasim")


def peak_mb(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@contextmanager
def timed_parts(split):
    "Wrap the hot functions of a profile so that their wall time adds up in `split` (seconds by part)."
    def wrap(mod, name, part):
        f = getattr(mod, name)
        def g(*a, **k):
            t = time.perf_counter()
            try: return f(*a, **k)
            finally: split[part] += time.perf_counter() - t
        setattr(mod, name, g)
        return mod, name, f
    saved = [wrap(P, "layer_states", "forward"), wrap(E, "distinct_knn", "kNN"), wrap(P, "outlier_mask", "selection"),
             wrap(P, "pair_batch_values", "pairs"),   # the pair metrics' engine call (their functions stay as they are: the
                                                      # engine's chain on the CPU is for `pair_geometry` itself)
             wrap(E, "moments", "spectra"),     # the Gram matrix both anisotropies of a batch share (engine: the CPU's per-batch path)
             wrap(E, "batched_knn", "kNN"), wrap(E, "batched_moments", "spectra")]   # a GPU's batched path
    part = {"avg_cos": "cosine", "avg_cos_centered": "cosine", "intersim": "cosine", "intrasim": "cosine",
            "anisotropy": "spectra", "anisotropy_uncentered": "spectra",     # and their top eigenvalues
            "rankme": "spectra", "alpha_req": "spectra", "massive": "massive"}  # the whole spectrum; the largest entry
    orig = dict(P.METRICS)
    for name, where in part.items():
        if name not in P.METRICS: continue
        m = P.METRICS[name]
        fn = m.fn
        if m.scope != "stream":
            @functools.wraps(fn)                          # the engine reads the metric's signature (its `center`)
            def timed(*a, _f=fn, _p=where, **k):
                t = time.perf_counter()
                try: return _f(*a, **k)
                finally: split[_p] += time.perf_counter() - t
            P.METRICS[name] = type(m)(**{**m.__dict__, "fn": timed})
        else:
            class Timed(fn):
                def update(self, *a, _p=where, **k):
                    t = time.perf_counter()
                    try: return super().update(*a, **k)
                    finally: split[_p] += time.perf_counter() - t
            P.METRICS[name] = type(m)(**{**m.__dict__, "fn": Timed})
    try: yield split
    finally:
        for mod, name, f in saved: setattr(mod, name, f)
        P.METRICS.clear(); P.METRICS.update(orig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="smollm2"); ap.add_argument("--tokens", type=int, default=16384)
    ap.add_argument("--window", type=int, default=512); ap.add_argument("--forward-batch", type=int, default=8)
    ap.add_argument("--metrics", default="all"); ap.add_argument("--device", default=None)
    a = ap.parse_args()
    metrics = DEFAULT_METRICS if a.metrics == "all" else tuple(a.metrics.split(","))
    torch.set_num_threads(os.cpu_count())
    model, tok, kind = load_model(a.model, device=a.device)
    src = wiki_source()
    spec = ProfileSpec(metrics=metrics, n_tokens=a.tokens, window=a.window, forward_batch=a.forward_batch)
    pre, _ = special_affixes(tok)
    per = a.window + (0 if pre else -1)                       # first position dropped, as the default policy does
    ids = cached_windows(src, tok, a.window, int(np.ceil(a.tokens / per)), 0).to(next(model.parameters()).device)
    print(f"bench_profile  model {a.model} ({kind}, {model.config.num_hidden_layers} layers, d={model.config.hidden_size})"
          f"  torch {torch.__version__}  threads {torch.get_num_threads()}  tokens {a.tokens}  windows {len(ids)}x{ids.shape[1]}"
          f"  load avg {os.getloadavg()[0]:.1f}")
    print(f"metrics: {', '.join(metrics)}")
    with torch.no_grad(): model(ids[:1])                       # warm-up
    # and the metric kernels: numba compiles them on first use after an install or an edit (about 20-40 s, then
    # cached on disk), which is not what this bench measures
    layer_profile(model, tok, src, ProfileSpec(metrics=metrics, n_tokens=1024, window=128, batch_size=512, layers=(0, 1)))
    def forward(trunk=False):
        "Seconds for the pass over every window: model(ids) as a user runs it, or the trunk without the LM head."
        f = (lambda x: model.base_model(input_ids=x, output_hidden_states=True, use_cache=False)) if trunk else model
        t = time.perf_counter()
        with torch.no_grad():
            for s in range(0, len(ids), a.forward_batch): f(ids[s:s + a.forward_batch])
        return time.perf_counter() - t
    fwd = [forward()]
    mem_fwd = peak_mb()
    trunk = forward(trunk=True)
    runs = {}
    plans = [("every metric", spec), ("both outlier policies", profile_spec(spec, outliers=("keep", "drop")))]
    if a.metrics == "all": plans.append(("issue-13 metrics", profile_spec(spec, metrics=ISSUE13)))
    for label, sp in plans:
        split = defaultdict(float)
        with timed_parts(split):
            t = time.perf_counter()
            df = layer_profile(model, tok, src, sp)
            total = time.perf_counter() - t
        split["other"] = total - sum(split.values())
        runs[label] = (total, dict(split), len(df), peak_mb())
    fwd.append(forward())                                      # again after the profiles: the machine's speed drifts
    t_fwd = sum(fwd) / len(fwd)
    print(f"\n{'':44s} {'seconds':>8s} {'tokens/s':>9s} {'x forward':>9s}")
    print(f"{'bare forward pass, model(ids) (mean of 2)':44s} {t_fwd:8.2f} {a.tokens / t_fwd:9.0f} {1:9.2f}"
          f"   (before {fwd[0]:.2f} s, after {fwd[1]:.2f} s)")
    print(f"{'trunk forward, no LM head (what a profile runs)':44s} {trunk:8.2f} {a.tokens / trunk:9.0f} {trunk / t_fwd:9.2f}")
    for label, (sec, _, _, _) in runs.items():
        print(f"{label:44s} {sec:8.2f} {a.tokens / sec:9.0f} {sec / t_fwd:9.2f}")
    print("\nwhere the profile's time goes (seconds; forward = the pass with hidden-state extraction):")
    parts = ("forward", "kNN", "selection", "spectra", "cosine", "massive", "pairs", "other")
    print(f"{'':44s} " + " ".join(f"{p:>9s}" for p in parts))
    for label, (_, split, _, _) in runs.items():
        print(f"{label:44s} " + " ".join(f"{split.get(p, 0.0):9.2f}" for p in parts))
    print(f"\npeak RSS: after the bare forward pass {mem_fwd:.0f} MB, after the profiles {peak_mb():.0f} MB")
    print(f"\nthe default profile against the trunk pass alone: {runs['every metric'][0] / trunk:.2f}x")
    for label, (sec, _, _, _) in runs.items():
        r = sec / t_fwd
        print(f"target: {label} <= {TARGETS[label]} x forward -> {'met' if r <= TARGETS[label] else 'NOT met'} ({r:.2f}x)")


if __name__ == "__main__":
    main()
