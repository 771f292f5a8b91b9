"""Benchmark: what `monitor.GeometryCallback` costs a training run, as a share of the run's time (issue 59: at most 10%
at its default interval on the CPU preset).

Run:  python bench/bench_monitor.py [--preset cpu] [--steps 200] [--every 100] [--repeat 1]

A decoder of the preset (`train.build_model`; `cpu`: 4 blocks, width 128, context 128, batch 24) is trained with
Hugging Face's `Trainer` on the offline Wikipedia sample for `--steps` steps, with no callback and then with the
callback at its defaults (anisotropy, TwoNN and RankMe on 2,048 held-out tokens, drift on 1,024) every `--every`
steps and before the first. It prints both runs' seconds, the callback's own seconds (its `seconds`), the measurements,
and the share: (with - without) / without, and the callback's seconds / the run's. Not a test: never run in CI.
"""
import argparse, tempfile, time, warnings
from pathlib import Path
import torch
from transformers import Trainer, TrainingArguments
from shape_of_learning.monitor import GeometryCallback, MonitorSpec
from shape_of_learning.train import build_model, preset_tokenizer, split_documents, token_chunks, get_preset


def run(preset: str, steps: int, every: int, callback: bool, folder: Path) -> tuple:
    p = get_preset(preset)
    tok = preset_tokenizer(preset)
    texts = split_documents(max_chars=p.max_chars)
    ids = token_chunks(tok, texts["train"], "decoder", p.ctx)
    data = [{"input_ids": torch.tensor(r), "labels": torch.tensor(r)} for r in ids]
    torch.manual_seed(0)
    cbs = [GeometryCallback(tok, texts["val"], folder / "store", monitor=MonitorSpec(every=every), run=preset)] if callback else []
    args = TrainingArguments(output_dir=str(folder / "out"), per_device_train_batch_size=p.batch, max_steps=steps, learning_rate=p.lr,
                             save_strategy="no", logging_steps=10**9, report_to=[], use_cpu=True, disable_tqdm=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trainer = Trainer(model=build_model("decoder", preset), args=args, train_dataset=data, callbacks=cbs)
        start = time.perf_counter()
        trainer.train()
        seconds = time.perf_counter() - start
    return seconds, (cbs[0].seconds, list(cbs[0].measured)) if cbs else (0.0, [])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="cpu")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--every", type=int, default=MonitorSpec().every)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    for r in range(a.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            bare, _ = run(a.preset, a.steps, a.every, False, Path(tmp) / "bare")
            with_cb, (own, steps) = run(a.preset, a.steps, a.every, True, Path(tmp) / "cb")
        print(f"preset {a.preset}, {a.steps} steps, every {a.every}: without the callback {bare:.1f} s, with it {with_cb:.1f} s "
              f"(its own {own:.1f} s at steps {steps}); share of the run {(with_cb - bare) / bare:.1%} by difference, "
              f"{own / with_cb:.1%} by its clock", flush=True)


if __name__ == "__main__":
    main()
