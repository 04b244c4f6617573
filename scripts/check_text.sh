#!/usr/bin/env bash
# House style of the project's text: the code, the scripts and the documentation say what is true
# of the code, not when or in which work item it came about, and the README stays a short user
# guide. Fails (exit 1, every offender printed) when
#   * a tracked source, script, build file or document names a development session or an issue
#     number (the word "session" or "issue", singular or plural, followed by a number or by
#     "#" and a number; see `pattern`); bench/results/ (dated measurement records) is exempt;
#   * README.md is longer than 350 lines.
# Files come from `git ls-files`, so build trees are never read; outside a git checkout the
# check is skipped with a note.
set -euo pipefail
cd "$(dirname "$0")/.."
readme_limit=350
pattern='[Ss]essions? [0-9]|[Ss]ession-[0-9]|[Ii]ssues? [0-9]|[Ii]ssues? #[0-9]'
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "check_text.sh: skipped: not a git checkout"
  exit 0
fi
fail=0
mapfile -t files < <(git ls-files -- '*.h' '*.cc' '*.c' '*.md' '*.txt' '*.py' '*.sh' '*.cmake' \
  '*.in' '*.toml' '.ci/*' ':!:bench/results/*' ':!:scripts/check_text.sh')
if ((${#files[@]} > 0)); then
  if grep -n -E "$pattern" -- "${files[@]}"; then
    echo "check_text.sh: the lines above tell development history; say what the code does" \
      "(and point to the results file or docs/ page that holds the evidence)"
    fail=1
  fi
fi
lines=$(wc -l <README.md)
if ((lines > readme_limit)); then
  echo "README.md has $lines lines (at most $readme_limit: longer material goes to docs/)"
  fail=1
fi
exit $fail
