#!/usr/bin/env bash
# Issue 47's measurements on a lent GPU machine, in one `run` call (about 6 minutes on an H200). Prepared here:
#
#   bash ../shared/device/wheels.sh .whl                              # the wheels the GPU image lacks
#   python bench/shapes.py .whl/shapes                                # SmolLM2-135M and Pythia-1.4B shapes, no weights
#   mkdir -p .whl/gensim/test/test_data && cp "$(python -c 'import gensim, os; print(os.path.dirname(gensim.__file__))')"/test/test_data/{enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2,pang_lee_polarity.cor} .whl/gensim/test/test_data/ && touch .whl/gensim/__init__.py .whl/gensim/test/__init__.py
#   echo /.whl/ >> .git/info/exclude
#
# then `run` with carry [".whl"] and the command `bash bench/device_session.sh`: the logs come back under $OUT.
# Parts (each under its own timeout, so one that hangs leaves the rest): check_cuda.py (the engine against the CPU
# included), bench_profile_gpu.py with --floor on both shapes (issue 47's targets: <= 3x the forward pass), and
# bench_metrics.py --device cuda against torchid (target 1.5x in all 24 cells), and check_gpu_memory.py on both shapes
# (issue 60: the plan's GPU memory within 20% of torch.cuda.max_memory_allocated).
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --ignore-requires-python --upgrade \
    --target /tmp/site .whl/*.whl && cp -r .whl/gensim /tmp/site/ && export PYTHONPATH=/tmp/site:$PWD
nvidia-smi --query-gpu=name,memory.total --format=csv | tee "$out/device.txt"
step() { local name=$1 limit=$2; shift 2; local t=$(date +%s)
         timeout "$limit" "$@" > "$out/$name.log" 2>&1; echo "$name: exit $? in $(( $(date +%s) - t )) s" | tee -a "$out/steps.txt"; }
step check_cuda 150 python3 bench/check_cuda.py
step profile_smollm2 150 python3 bench/bench_profile_gpu.py --model .whl/shapes/smollm2-135m --random-weights --tokens 65536 \
    --dtypes float32 --floor --csv "$out/profile_smollm2.csv"
step profile_pythia 120 python3 bench/bench_profile_gpu.py --model .whl/shapes/pythia-1.4b --random-weights --tokens 16384 \
    --dtypes bfloat16 --floor --csv "$out/profile_pythia.csv"
step bench_metrics 120 python3 bench/bench_metrics.py --device cuda --repeat 2 --csv "$out/bench_metrics.csv"
step memory_pythia 90 python3 bench/check_gpu_memory.py --model .whl/shapes/pythia-1.4b --random-weights --tokens 16384 \
    --dtype bfloat16
step memory_smollm2 90 python3 bench/check_gpu_memory.py --model .whl/shapes/smollm2-135m --random-weights --tokens 65536 \
    --dtype float32 --pairs
grep -h -E "PASS|FAIL|checks,|target|floor|forward |plan / measured" "$out"/*.log | tail -40
