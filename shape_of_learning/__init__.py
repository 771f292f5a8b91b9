"""Layer-wise anisotropy, isotropy and intrinsic dimension of transformer representations, reproducing three papers as literate nbdev notebooks

Modules:

- `shape_of_learning.localhub`: Stand-in checkpoints under the papers' real names and revisions, served to the real clients (`huggingface_hub`, `transformers`, `datasets`) by a local Hub, so that every `paper` configuration is rehearsed end to end in CI.
- `shape_of_learning.plan`: Checkpoints, downloads, peak disk, GPU memory and hours of a task configuration, from the Hub's file metadata and the models' configs (no weights read), and a refusal naming the task and the setting to change when the machine is too small.
- `shape_of_learning.prompts`: Every window of text as its own point cloud, layer by layer: GRIDE intrinsic dimension at doubling ranks (Viswanathan et al. 2025), prompt entropy and curvature (Skean et al., ICML 2025), next to the window's next-token loss from the same forward pass, with a token-shuffled control.
- `shape_of_learning.runtime`: GPU memory, disk, downloads and hours on an A100 and a T4 of every `paper` configuration that reads the Hub, from a catalog of the papers' model configs (no network): the table the figure notebooks quote."""

__version__ = "0.0.1"
