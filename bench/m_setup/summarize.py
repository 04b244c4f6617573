"""Summarizes the runs of bench/m_setup/ab.sh: per file and label, the iterations and status
(must agree between A and B), and the mean of timings.setup, time_s and process wall over the
repetitions, with the mean load. Usage: python3 summarize.py runs.jsonl"""
import collections
import json
import os
import statistics
import sys

runs = [json.loads(line) for line in open(sys.argv[1])]
groups = collections.defaultdict(list)
for r in runs:
    groups[(os.path.basename(r["file"]), r["label"])].append(r)
print("| file | label | iterations | status | error | setup s | time_s | process wall s | load |")
print("|---|---|---|---|---|---|---|---|---|")
for (name, label), rs in sorted(groups.items()):
    mean = lambda f: statistics.mean(f(r) for r in rs)
    print(f"| {name} | {label} | {sorted(set(r['iterations'] for r in rs))} | "
          f"{sorted(set(r['status'] for r in rs))} | {rs[0]['error']:.3g} | "
          f"{mean(lambda r: r['timings']['setup']):.3f} | {mean(lambda r: r['time_s']):.3f} | "
          f"{mean(lambda r: r['process_wall']):.3f} | {mean(lambda r: r['load']):.1f} |")
