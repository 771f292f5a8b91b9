"""Layer-wise anisotropy, isotropy and intrinsic dimension of transformer representations, reproducing three papers as literate nbdev notebooks

Modules:

- `shape_of_learning.localhub`: Stand-in checkpoints under the papers' real names and revisions, served to the real clients (`huggingface_hub`, `transformers`, `datasets`) by a local Hub, so that every `paper` configuration is rehearsed end to end in CI."""

__version__ = "0.0.1"
