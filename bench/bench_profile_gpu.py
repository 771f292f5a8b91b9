#!/usr/bin/env python
"""Benchmark: a layer profile on the GPU in bfloat16 and float16 against float32 (issue 33).

    python bench/bench_profile_gpu.py --model smollm2 --tokens 65536              # every metric, three dtypes
    python bench/bench_profile_gpu.py --model PATH.gguf --text PATH.xml.bz2 --dtypes float32,bfloat16
    python bench/bench_profile_gpu.py --model FOLDER --random-weights      # the folder's config and tokenizer, random weights
    python bench/bench_profile_gpu.py --groups --dtypes float32            # also each group of metrics alone, same model

For each dtype: the model is cast from one float32 load and placed on the GPU; a bare forward pass over the same
windows (`model(ids)`, synchronized) is timed before and after the profile; `layer_profile` with every metric of
`profile.METRICS` is timed; peak GPU memory (`torch.cuda.max_memory_allocated`) is read for each. Then every
(layer, metric) value of the half-precision profiles is compared with float32's: largest absolute and relative
difference per metric, and the layers where it occurs. Target: profile <= 1.2 x forward. Not a test: never run in CI.
"""
import argparse, copy, os, time
import numpy as np, pandas as pd, torch
from shape_of_learning.models import load_model, model_kind
from shape_of_learning.profile import METRICS, DEFAULT_METRICS, ProfileSpec, layer_profile, cached_windows, special_affixes
from shape_of_learning.data import wiki_source

TARGET = 3.0          # issue 47: every metric at most 3x the forward pass (SmolLM2 float32 65,536; Pythia-1.4B bfloat16 16,384)
GROUPS = {"kNN estimators": ("twonn", "mada", "mom", "mle", "gride"), "anisotropies": ("anisotropy", "anisotropy_uncentered"),
          "RankMe, alpha-ReQ": ("rankme", "alpha_req"), "pair metrics": ("overlap", "imbalance_forward", "imbalance_backward"),
          "massive": ("massive",), "cosine": ("avg_cos", "avg_cos_centered", "intersim", "intrasim")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="smollm2", help="offline name, folder or .gguf path")
    ap.add_argument("--text", default=None, help="a MediaWiki dump (default: gensim's offline sample)")
    ap.add_argument("--tokens", type=int, default=65536); ap.add_argument("--window", type=int, default=512)
    ap.add_argument("--forward-batch", type=int, default=32); ap.add_argument("--metrics", default="all")
    ap.add_argument("--dtypes", default="float32,bfloat16,float16")
    ap.add_argument("--csv", default=None, help="write every profile's rows here (a dtype column), after each dtype")
    ap.add_argument("--groups", action="store_true", help="after the first dtype's profile, time each group of metrics "
                    "alone on the same model (each includes the forward pass, the collection and the outlier rule)")
    ap.add_argument("--random-weights", action="store_true", help="a folder's config.json and tokenizer with random weights "
                    "(times and memory as the real model's; the values are not)")
    ap.add_argument("--device", default="cuda", help="cuda (default), or cpu for a smoke run")
    ap.add_argument("--floor", action="store_true", help="also time the engine's batched pieces alone on one layer's batches "
                    "of random points (float64 moments with both eigendecompositions, the kNN at k = 100, a pair of layers): "
                    "the arithmetic floor of the profile, times the number of layers")
    a = ap.parse_args()
    dev = torch.device(a.device)
    cuda = dev.type == "cuda"
    sync = (lambda: torch.cuda.synchronize(dev)) if cuda else (lambda: None)
    peak = (lambda: torch.cuda.max_memory_allocated(dev)) if cuda else (lambda: 0)
    reset = (lambda: torch.cuda.reset_peak_memory_stats(dev)) if cuda else (lambda: None)
    metrics = DEFAULT_METRICS if a.metrics == "all" else tuple(a.metrics.split(","))
    if a.random_weights:                             # a folder with config.json and the tokenizer; weights not needed
        from transformers import AutoConfig, AutoTokenizer, AutoModel, AutoModelForCausalLM
        config = AutoConfig.from_pretrained(a.model)
        kind, tok = model_kind(config), AutoTokenizer.from_pretrained(a.model)
        torch.manual_seed(0)
        base = (AutoModelForCausalLM if kind == "decoder" else AutoModel).from_config(config).eval()
    else: base, tok, kind = load_model(a.model)
    src = wiki_source(a.text)
    spec = ProfileSpec(metrics=metrics, n_tokens=a.tokens, window=a.window, forward_batch=a.forward_batch)
    pre, _ = special_affixes(tok)
    per = a.window + (0 if pre else -1)
    ids = cached_windows(src, tok, a.window, int(np.ceil(a.tokens / per)), 0).to(dev)
    print(f"bench_profile_gpu  {a.model} ({kind}, {base.config.num_hidden_layers} layers, d={base.config.hidden_size})  "
          f"torch {torch.__version__}  {(torch.cuda.get_device_name(dev) if cuda else 'cpu')}  tokens {a.tokens}  windows {tuple(ids.shape)}")
    print(f"metrics: {', '.join(metrics)}")
    rows, frames = [], {}
    for name in a.dtypes.split(","):
        dtype = getattr(torch, name)
        model = copy.deepcopy(base).to(dev, dtype).eval()
        def forward():
            sync(); t = time.perf_counter()
            with torch.no_grad():
                for s in range(0, len(ids), a.forward_batch): model(ids[s:s + a.forward_batch])
            sync(); return time.perf_counter() - t
        forward()                                                  # warm-up (kernels, allocator)
        layer_profile(model, tok, src, ProfileSpec(metrics=metrics, n_tokens=4096, window=a.window, layers=(0, 1)))
        reset()
        f0 = forward(); mem_fwd = peak()
        reset()
        sync(); t = time.perf_counter()
        df = layer_profile(model, tok, src, spec)
        sync(); t_prof = time.perf_counter() - t
        mem_prof = peak()
        f1 = forward()
        t_fwd = (f0 + f1) / 2
        if a.groups and not rows:
            for group, names in GROUPS.items():
                chosen = tuple(m for m in names if m in metrics)
                if not chosen: continue
                sync(); t = time.perf_counter()
                layer_profile(model, tok, src, spec, metrics=chosen)
                sync(); print(f"  {name} {group:18s} alone: {time.perf_counter() - t:7.2f} s", flush=True)
        frames[name] = df.assign(dtype=name)
        if a.csv: pd.concat(frames.values()).to_csv(a.csv, index=False)
        rows.append(dict(dtype=name, forward_s=t_fwd, profile_s=t_prof, ratio=t_prof / t_fwd,
                         forward_peak_gb=mem_fwd / 2**30, profile_peak_gb=mem_prof / 2**30,
                         weights_gb=sum(p.numel() * p.element_size() for p in model.parameters()) / 2**30))
        print(f"{name:9s} forward {t_fwd:7.2f} s (before {f0:.2f}, after {f1:.2f})  profile {t_prof:7.2f} s  "
              f"= {t_prof / t_fwd:5.2f}x forward" + (f"  peak GPU memory: forward {mem_fwd / 2**30:.2f} GiB, "
              f"profile {mem_prof / 2**30:.2f} GiB" if cuda else ""), flush=True)
        if a.floor: rows[-1].update(floor(a, dev, sync, peak, reset, base.config, metrics, t_prof, t_fwd))
        del model
        if cuda: torch.cuda.empty_cache()
    print("\n" + pd.DataFrame(rows).round(3).to_string(index=False))
    for r in rows:
        print(f"target ({r['dtype']}): profile <= {TARGET} x forward -> {'met' if r['ratio'] <= TARGET else 'NOT met'} "
              f"({r['ratio']:.2f}x)")
    if "float32" in frames:
        keys = ["source", "layer", "metric"] + [c for c in ("policy", "outliers") if c in frames["float32"].columns]
        ref = frames["float32"]
        for name, df in frames.items():
            if name == "float32": continue
            m = df.merge(ref, on=keys, suffixes=("", "_32"))
            m["abs_diff"] = (m.value - m.value_32).abs()
            m["rel_diff"] = m.abs_diff / m.value_32.abs().clip(lower=1e-12)
            worst = m.loc[m.groupby("metric").abs_diff.idxmax()]
            print(f"\n{name} against float32, per metric over {m.layer.nunique()} layers: largest |difference|, where, "
                  f"and the value in float32")
            print(worst[["metric", "layer", "value_32", "value", "abs_diff", "rel_diff"]]
                  .assign(median_abs=m.groupby("metric").abs_diff.median().reindex(worst.metric).values)
                  .to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    if a.csv: print(f"\nrows written to {a.csv}")


def floor(a, dev, sync, peak, reset, config, metrics, t_prof, t_fwd) -> dict:
    "Seconds of the engine's batched pieces on one layer's batches of random points, the profile's arithmetic floor."
    import shape_of_learning.engine as E
    d, layers = config.hidden_size, config.num_hidden_layers + 1
    B, n = max(1, a.tokens // 4096), min(4096, a.tokens)
    g = torch.Generator(device=dev).manual_seed(0)
    X = (torch.randn(B, n, 32, device=dev, generator=g) @ torch.randn(32, d, device=dev, generator=g)
         + 0.1 * torch.randn(B, n, d, device=dev, generator=g))
    Y = torch.tanh(X)
    group = E.group_size(n, d, dev, pairs=True)
    def timed(f):
        f(); sync(); reset(); t = time.perf_counter(); f(); sync(); return time.perf_counter() - t, peak() / 2**30
    parts = {"moments (both centers)": lambda: E.batched_moments(X[:group], (True, False)),
             "kNN k=100": lambda: E.batched_knn(X[:group], 100), "pair k=30": lambda: E.batched_pairs(X[:group], Y[:group], 30)}
    out, total = {}, 0.0
    for name, f in parts.items():
        seconds, gib = timed(f)
        seconds *= B / min(B, group)                                    # the layer's groups one after another
        total += seconds
        out[f"floor_{name.split()[0].lower()}_s"] = seconds * layers
        print(f"  floor, {name:22s} {seconds * 1e3:8.1f} ms per layer ({B} batches of {n} x {d}, groups of {min(B, group)}), "
              f"x {layers} layers = {seconds * layers:6.2f} s, peak {gib:.2f} GiB", flush=True)
    print(f"  floor of every layer: {total * layers:.2f} s; profile {t_prof:.2f} s = {t_prof / (t_fwd + total * layers):.2f}x "
          f"(forward + floor), {t_prof / t_fwd:.2f}x forward", flush=True)
    return dict(floor_s=total * layers, ratio_to_floor=t_prof / (t_fwd + total * layers))


if __name__ == "__main__":
    main()
