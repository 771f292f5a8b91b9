"""Benchmark: `layer_profile` against a bare forward pass over the same tokens (issue 3 target: <= 1.3x).

Run:  python bench/bench_profile.py [--model smollm2] [--tokens 16384] [--metrics all|anisotropy,intersim,twonn]
Prints tokens per second of the bare forward pass and of the profile, their ratio, the time per metric family,
and peak resident memory. Not a test: never run in CI.
"""
import argparse, os, resource, time
import numpy as np, torch
from shape_of_learning.models import load_model
from shape_of_learning.hidden import layer_profile, special_affixes, window_inputs, BATCH_METRICS, COSINE_METRICS
from shape_of_learning.data import wiki_source, token_windows


def peak_mb(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="smollm2"); ap.add_argument("--tokens", type=int, default=16384)
    ap.add_argument("--window", type=int, default=512); ap.add_argument("--forward-batch", type=int, default=8)
    ap.add_argument("--metrics", default="all"); ap.add_argument("--device", default=None)
    a = ap.parse_args()
    metrics = tuple(BATCH_METRICS) + COSINE_METRICS if a.metrics == "all" else tuple(a.metrics.split(","))
    torch.set_num_threads(os.cpu_count())
    model, tok, kind = load_model(a.model, device=a.device)
    src = wiki_source()
    pre, _ = special_affixes(tok)
    per = a.window + (0 if pre else -1)                       # first position dropped, as layer_profile does
    W = token_windows(src, tok, length=a.window, n_windows=int(np.ceil(a.tokens / per)), seed=0)
    ids = window_inputs(tok, W).to(next(model.parameters()).device)
    print(f"bench_profile  model {a.model} ({kind}, {model.config.num_hidden_layers} layers, d={model.config.hidden_size})"
          f"  torch {torch.__version__}  threads {torch.get_num_threads()}  tokens {a.tokens}  windows {len(ids)}x{ids.shape[1]}")
    print(f"metrics: {', '.join(metrics)}")
    with torch.no_grad():                                      # warm-up
        model(ids[:1])
    t = time.perf_counter()
    with torch.no_grad():
        for s in range(0, len(ids), a.forward_batch): model(ids[s:s + a.forward_batch])
    t_fwd = time.perf_counter() - t
    mem_fwd = peak_mb()
    t = time.perf_counter()
    df = layer_profile(model, tok, src, metrics=metrics, n_tokens=a.tokens, window=a.window,
                       forward_batch=a.forward_batch)
    t_prof = time.perf_counter() - t
    # the same profile with no metrics beyond one streaming cosine isolates extraction (hooks, copies) from metrics
    t = time.perf_counter()
    layer_profile(model, tok, src, metrics=("intersim",), n_tokens=a.tokens, window=a.window, forward_batch=a.forward_batch)
    t_extract = time.perf_counter() - t
    print(f"\n{'':32s} {'seconds':>8s} {'tokens/s':>9s} {'x forward':>9s}")
    for name, sec in [("bare forward pass", t_fwd), ("profile, extraction + InterSim only", t_extract),
                      ("profile, selected metrics", t_prof)]:
        print(f"{name:32s} {sec:8.2f} {a.tokens / sec:9.0f} {sec / t_fwd:9.2f}")
    print(f"\ntarget: profile <= 1.30 x forward  ->  {'met' if t_prof / t_fwd <= 1.3 else 'NOT met'} ({t_prof / t_fwd:.2f}x)")
    print(f"peak RSS after forward {mem_fwd:.0f} MB, after profiles {peak_mb():.0f} MB; rows {len(df)}, "
          f"layers {df.layer.nunique()}")


if __name__ == "__main__":
    main()
