#!/usr/bin/env bash
# Regenerates the masonry-wall study: deps, Release build, the 50 problems (if missing), the
# solves, the profiles and the summary table. See README.md.
#
#   bench/masonry_study/run.sh [--problems DIR] [--out DIR] [--build DIR] [--time-limit S]
#                              [--every K] [--offset J] [--max-problems N] [--solvers A,B,...]
#                              [--warm] [--mu-preset deck|paper] [--no-deps] [--no-build]
#
# Defaults: deck friction (problems /tmp/wallscratch/lowwall; with --mu-preset paper
# /tmp/wallscratch/lowwall_paper), results bench/results/masonry/<deck|paper>_<cold|warm>, build
# dir build, time limit 15 s, all 50 problems, cold start. The per-iteration histories go to
# history.csv in the results (histories.py draws them). A quick smoke run:
#   bench/masonry_study/run.sh --every 10 --time-limit 5 --out /tmp/masonry_smoke
# The full run (8 solvers x 50 problems) takes about an hour on 2 shared cores with the 15 s
# limit; `--every 2` halves it.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
problems=
out=
build=$repo/build
mu_preset=deck
offset=0
time_limit=15
every=1
max_problems=0
solvers=""
warm=""
deps=1
do_build=1
while (($#)); do
  case "$1" in
    --problems) problems=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --time-limit) time_limit=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    --offset) offset=$2; shift 2 ;;
    --mu-preset) mu_preset=$2; shift 2 ;;
    --max-problems) max_problems=$2; shift 2 ;;
    --solvers) solvers=$2; shift 2 ;;
    --warm) warm=--warm; shift ;;
    --no-deps) deps=0; shift ;;
    --no-build) do_build=0; shift ;;
    -h | --help) sed -n 2,13p "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

case $mu_preset in
  deck) problems=${problems:-/tmp/wallscratch/lowwall} ;;
  paper) problems=${problems:-/tmp/wallscratch/lowwall_paper} ;;
  *) echo "run.sh: --mu-preset is deck or paper" >&2; exit 2 ;;
esac
out=${out:-$repo/bench/results/masonry/${mu_preset}_$([[ -n $warm ]] && echo warm || echo cold)}
cd "$repo"
if ((deps)); then scripts/install_deps.sh --bench; fi
if ((do_build)); then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release
  cmake --build "$build" -j2 --target masonry_study masonry_wall
fi

# The 50 FCLib counters of LowWall_FEM (examples/masonry_wall/README.md): 500 steps, ~15 min.
if ! compgen -G "$problems/LowWall_FEM-*.hdf5" >/dev/null; then
  echo "run.sh: generating the 50 problems into $problems" >&2
  mkdir -p "$problems"
  "$build/bin/masonry_wall" --steps 500 --mu-preset "$mu_preset" --export-dir "$problems" \
    --log "$problems/run_log.csv"
fi

export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
source scripts/blas_env.sh
mkdir -p "$out"
{
  echo "date_start: $(date -u +%FT%TZ)"
  echo "git_head: $(git rev-parse HEAD)"
  echo "host: $(nproc --all) cores,$(grep 'model name' /proc/cpuinfo | head -1 | cut -d: -f2)"
  echo "loadavg_start: $(cat /proc/loadavg)"
  echo "OPENBLAS_CORETYPE: ${OPENBLAS_CORETYPE:-(unset)}"
  echo "options: time_limit=$time_limit every=$every offset=$offset max_problems=$max_problems" \
    "solvers=${solvers:-all} start=${warm:-cold} mu_preset=$mu_preset problems=$problems"
} >"$out/run_info.txt"
args=(--time-limit "$time_limit" --tol 1e-8 --every "$every" --offset "$offset"
  --max-problems "$max_problems" --csv "$out/study.csv" --runs-csv "$out/runs.csv"
  --model-csv "$out/flop_model.csv" --history-csv "$out/history.csv")
if [[ -n $solvers ]]; then args+=(--solvers "$solvers"); fi
if [[ -n $warm ]]; then args+=("$warm"); fi
"$build/bin/masonry_study" "${args[@]}" "$problems" 2>&1 | tee "$out/driver.log"
{
  echo "loadavg_end: $(cat /proc/loadavg)"
  echo "date_end: $(date -u +%FT%TZ)"
} >>"$out/run_info.txt"

/usr/bin/python3 bench/masonry_study/profiles.py --out "$out" "$out/study.csv"
