"""Layer-wise anisotropy, isotropy and intrinsic dimension of transformer representations, reproducing three papers as literate nbdev notebooks

Modules:

- `shape_of_learning.localhub`: Stand-in checkpoints under the papers' real names and revisions, served to the real clients (`huggingface_hub`, `transformers`, `datasets`) by a local Hub, so that every `paper` configuration is rehearsed end to end in CI.
- `shape_of_learning.plan`: Checkpoints, downloads, peak disk, GPU memory and hours of a task configuration, from the Hub's file metadata and the models' configs (no weights read), and a refusal naming the task and the setting to change when the machine is too small."""

__version__ = "0.0.1"
