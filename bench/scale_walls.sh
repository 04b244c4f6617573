#!/usr/bin/env bash
# bench/scale_walls.sh: how fcsn's solve of the masonry wall grows with the mesh
# (towards n = 1e6 dof). For each refine level R:
#   (a) generates refine-R wall steps into SCRATCH/refinedR when that folder
#       has no .hdf5 file (build/bin/masonry_wall --refine R --steps 4
#       --export-steps 2 3 4 --cold-start auto --export-dir SCRATCH/refinedR,
#       under nice -n 15 and /usr/bin/time -v, logging to
#       SCRATCH/refinedR/generate.log; level "coarse" uses --coarse, and
#       level 1 uses SCRATCH/lowwall when it exists);
#   (b) solves the first --files step files per level (ordered by the step
#       counter, the file name's last field: the gravity steps 2, 3, ...) with
#       `fcsn solve --json --no-history --tol TOL --cold-start auto` under
#       `/usr/bin/time -f '%e %M %U %S'`, once per variant (default options;
#       --low-rank TOL; --out-of-core);
#   (c) prints the command, date, machine and load, then a Markdown table:
#       level, n, contacts, nnz(M) + nnz(H), the factorization flops
#       (full-rank and BLR-effective), MUMPS memory (estimated / used), peak
#       RSS, Newton iterations, factorizations, setup time, time per
#       factorization and per iteration, total wall and CPU (user + system)
#       time and status;
#   (d) fits y ~ a n^p by least squares on log-log for the factorization
#       flops, the setup time (M's factorization and rho's W_aa blocks), the
#       time per factorization, the total wall and CPU time, the
#       peak RSS and the memory MUMPS' factorization used (per variant, one
#       point per size: the median over its files; needs >= 2 sizes) and
#       prints the projection to n = 1e6 (from the fit and from the exponent
#       between the two largest sizes).
#
# Usage:
#   bench/scale_walls.sh [--scratch DIR] [--files K] [--tol TOL]
#       [--variants LIST] [--low-rank TOL] [--timeout SECONDS]
#       [--cold-start C] [--skip-naming-solve] [--generate-only] LEVEL...
#   bench/scale_walls.sh --report-only JSONL
#       (prints the table and the fits of earlier solves: lines of
#       SCRATCH/scale_walls_results.jsonl, e.g. two runs' lines joined)
#   LEVEL: 1..8 (masonry_wall --refine) or "coarse".
#   LIST: comma-separated among default, low-rank, out-of-core,
#         low-rank+out-of-core (default: "default").
#   C: fcsn solve --cold-start value (default auto: the gravity steps start
#      bonded, bench/results/gravity_steps.md).
#   --skip-naming-solve: generate with masonry_wall --skip-naming-solve (file
#      names carry i00000; saves a cold NSN-AC solve per file at large sizes).
#   Long generations: run it in the background, e.g.
#     nohup bench/scale_walls.sh --generate-only 3 4 > /tmp/gen34.log 2>&1 &
#
# Environment: FCSN_BIN (default build/bin/fcsn), MASONRY_BIN (default
# build/bin/masonry_wall). Raw results: one JSON line per solve in
# SCRATCH/scale_walls_results.jsonl (appended; the table uses this run's).
# Timings are wall-clock on a possibly shared machine: state the load
# (uptime is printed at the start and the end).
set -euo pipefail

command_line="bench/scale_walls.sh $*"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
fcsn_bin="${FCSN_BIN:-$here/build/bin/fcsn}"
masonry_bin="${MASONRY_BIN:-$here/build/bin/masonry_wall}"
scratch=/tmp/wallscratch
files_per_level=2
tol=1e-8
variants=default
low_rank_tol=1e-8
timeout_s=3600
generate_only=0
report_only=
cold_start=auto
naming_flags=()
levels=()

while [[ $# -gt 0 ]]; do
  case "$1" in
    --scratch) scratch="$2"; shift 2 ;;
    --files) files_per_level="$2"; shift 2 ;;
    --tol) tol="$2"; shift 2 ;;
    --variants) variants="$2"; shift 2 ;;
    --low-rank) low_rank_tol="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --cold-start) cold_start="$2"; shift 2 ;;
    --skip-naming-solve) naming_flags=(--skip-naming-solve); shift ;;
    --generate-only) generate_only=1; shift ;;
    --report-only) report_only="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0"; exit 0 ;;
    *) levels+=("$1"); shift ;;
  esac
done
if [[ ${#levels[@]} -eq 0 && -z "$report_only" ]]; then
  echo "scale_walls.sh: give at least one level (1..8 or coarse)" >&2
  exit 2
fi

# The folder holding level $1's step files.
level_dir() {
  if [[ "$1" == 1 && ! -d "$scratch/refined1" && -d "$scratch/lowwall" ]]; then
    echo "$scratch/lowwall"
  else
    echo "$scratch/refined$1"
  fi
}

# (a) Generates level $1's steps unless its folder already has some.
generate_level() {
  local level="$1" dir
  dir="$(level_dir "$level")"
  if compgen -G "$dir/*.hdf5" > /dev/null; then return 0; fi
  mkdir -p "$dir"
  local size_flag=(--refine "$level")
  [[ "$level" == coarse ]] && size_flag=(--coarse)
  echo "generating level $level into $dir (log: $dir/generate.log)" >&2
  (cd "$dir" && /usr/bin/time -v nice -n 15 "$masonry_bin" "${size_flag[@]}" \
      --steps 4 --export-steps 2 3 4 --cold-start auto "${naming_flags[@]}" \
      --export-dir "$dir" --log "$dir/masonry_log.csv" \
      > "$dir/generate.log" 2>&1)
}

# The fcsn solve flags of variant $1.
variant_flags() {
  case "$1" in
    default) echo "" ;;
    low-rank) echo "--low-rank $low_rank_tol" ;;
    out-of-core) echo "--out-of-core" ;;
    low-rank+out-of-core) echo "--low-rank $low_rank_tol --out-of-core" ;;
    *) echo "scale_walls.sh: unknown variant '$1'" >&2; exit 2 ;;
  esac
}

# (c) and (d): the table and the fits of the solves in JSONL file $1.
report() {
  echo "Command: \`FCSN_BIN=$fcsn_bin $command_line\`"
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); fcsn $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?');" \
    "$(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GB;" \
    "OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-unset}; load at start and end: see stderr"
  echo
  python3 - "$1" <<'EOF'
import json, math, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]

def g(r, k, default=float("nan")):
    v = r.get(k)
    return default if v is None else v

def per_fact(r):
    nf = g(r, "factorizations", 0)
    tf = g(r, "timings", {}).get("factorization", float("nan"))
    return tf / nf if nf else float("nan")

print("| level | variant | n | contacts | nnz(M)+nnz(H) | fact. flops (FR / BLR) "
      "| MUMPS MB (est / used) | peak RSS MB | Newton it. | fact. | setup s "
      "| s / fact. | s / it. | total s | CPU s | status |")
print("|---|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for r in rows:
    it, nf = g(r, "iterations", 0), g(r, "factorizations", 0)
    print("| %s | %s | %s | %s | %s | %.3g / %.3g | %.0f / %.0f | %.0f | %s | %s "
          "| %.2f | %.3f | %s | %.2f | %.2f | %s |" % (
              r["level"], r["variant"], g(r, "n", "?"), g(r, "nc", "?"),
              g(r, "nnz_M", 0) + g(r, "nnz_H", 0),
              g(r, "last_factorization_flops", 0),
              g(r, "last_factorization_effective_flops", 0),
              g(r, "estimated_memory_mb", 0), g(r, "factorization_memory_mb", 0),
              r["peak_rss_mb"], it, nf, g(r, "timings", {}).get("setup", 0.0),
              per_fact(r), "%.3f" % (g(r, "time_s", 0) / it) if it else "-",
              r["wall_s"], g(r, "cpu_s"), g(r, "status", "?")))

print()
QUANTITIES = (
    ("factorization flops", lambda r: g(r, "last_factorization_effective_flops"), ""),
    ("setup time", lambda r: g(r, "timings", {}).get("setup", float("nan")), "s"),
    ("time per factorization", per_fact, "s"),
    ("total time", lambda r: r["wall_s"], "s"),
    # user + system: less sensitive to other jobs than the wall clock.
    ("total CPU time", lambda r: g(r, "cpu_s"), "s"),
    ("peak RSS", lambda r: r["peak_rss_mb"], "MB"),
    ("MUMPS memory", lambda r: g(r, "factorization_memory_mb"), "MB"))
for variant in sorted({r["variant"] for r in rows}):
    # One point per size: the median over that size's solves.
    by_n = {}
    for r in rows:
        if r["variant"] == variant and isinstance(r.get("n"), int):
            by_n.setdefault(r["n"], []).append(r)
    points = sorted(by_n.items())
    if len(points) < 2:
        print("    %s: fit needs >= 2 sizes (have %d)" % (variant, len(points)))
        continue
    for name, value, unit in QUANTITIES:
        medians = [(n, statistics.median(value(r) for r in rs))
                   for n, rs in points]
        medians = [(n, y) for n, y in medians if y > 0 and math.isfinite(y)]
        if len(medians) < 2:
            print("    %s, %s: fit needs >= 2 sizes with a value" % (variant, name))
            continue
        xs = [math.log(n) for n, _ in medians]
        ys = [math.log(y) for _, y in medians]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        p = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
        a = my - p * mx
        # The exponent between the two largest sizes: the trend to extrapolate.
        (n1, y1), (n2, y2) = medians[-2:]
        p_last = math.log(y2 / y1) / math.log(n2 / n1)
        print("    %s, %s ~ %.3g n^%.2f (log-log least squares over %d sizes, "
              "n = %s; n^%.2f between the last two); at n = 1e6: %.3g %s "
              "(fit), %.3g %s (last-two exponent)" % (
                  variant, name, math.exp(a), p, len(medians),
                  ", ".join(str(n) for n, _ in medians), p_last,
                  math.exp(a + p * math.log(1e6)), unit,
                  y2 * (1e6 / n2) ** p_last, unit))
EOF
}

if [[ -n "$report_only" ]]; then report "$report_only"; exit 0; fi
echo "load at start: $(uptime)" >&2
for level in "${levels[@]}"; do generate_level "$level"; done
[[ $generate_only == 1 ]] && exit 0

results="$scratch/scale_walls_results.jsonl"
run_results="$(mktemp)"
trap 'rm -f "$run_results" "$run_results".*' EXIT
IFS=',' read -r -a variant_list <<< "$variants"
for level in "${levels[@]}"; do
  dir="$(level_dir "$level")"
  mapfile -t step_files < <(ls "$dir"/*.hdf5 |
      awk -F- '{print $NF "\t" $0}' | sort | cut -f2 | head -n "$files_per_level")
  for file in "${step_files[@]}"; do
    info="$("$fcsn_bin" info --json "$file")"
    for variant in "${variant_list[@]}"; do
      read -r -a flags <<< "$(variant_flags "$variant")"
      status=0
      timeout "$timeout_s" /usr/bin/time -f '%e %M %U %S' -o "$run_results.time" \
          nice -n 10 "$fcsn_bin" solve --json --no-history --tol "$tol" \
          --cold-start "$cold_start" "${flags[@]}" "$file" > "$run_results.json" 2> "$run_results.err" \
          || status=$?
      python3 - "$level" "$variant" "$status" "$info" "$run_results.json" \
          "$run_results.time" >> "$run_results" <<'EOF'
import json, sys
level, variant, status, info, json_path, time_path = sys.argv[1:7]
row = {"level": level, "variant": variant, "exit": int(status)}
row.update({k: v for k, v in json.loads(info).items()
            if k in ("nnz_M", "nnz_H")})
try:
    with open(json_path) as f:
        row.update(json.loads(f.read().strip().splitlines()[-1]))
except (OSError, ValueError, IndexError):
    row["status"] = "no-output (exit %s)" % status
try:
    with open(time_path) as f:
        wall, rss_kb, user, system = f.read().split()[-4:]
    row["wall_s"], row["peak_rss_mb"] = float(wall), float(rss_kb) / 1024
    row["cpu_s"] = float(user) + float(system)
except (OSError, ValueError):
    row["wall_s"], row["peak_rss_mb"] = float("nan"), float("nan")
print(json.dumps(row))
EOF
      tail -n 1 "$run_results" >> "$results"
      echo "solved level $level $(basename "$file") [$variant]: exit $status" >&2
    done
  done
done

report "$run_results"
echo "load at end: $(uptime)" >&2
