#!/usr/bin/env bash
# The coordinator's final device call of 2026-11-26/27 (docs/results/tight/final.md): the fresh
# set Z1-Z9 (final_groups.sh) measured after every model change of the session had landed and
# predicted with main as landed (DIR/cbi, "after") and with the model at the session's start
# (DIR/cbi-before, "before"); then, in the time left, sm.md's set X1-X9 (sm_groups.sh) predicted
# again with main as landed (its own predictions were made without the L2 partitions).
#
# usage: OUT=... bash final_run.sh DIR    (DIR: cbi, cbi-before, fix_run.sh, final_groups.sh,
#                                          sm_groups.sh). Results: $OUT/fix.tar.gz, $OUT/log.txt.
set -uo pipefail
dir=${1:?DIR}
t0=$(date +%s)
GROUPS_FILE=final_groups.sh DEADLINE=380 bash "$dir/fix_run.sh" "$dir" "measure after before"
left=$((540 - ($(date +%s) - t0)))
[ "$left" -gt 30 ] && GROUPS_FILE=sm_groups.sh DEADLINE=$left bash "$dir/fix_run.sh" "$dir" after
echo "final_run: $(($(date +%s) - t0)) s"
