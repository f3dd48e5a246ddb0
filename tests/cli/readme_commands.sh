#!/bin/sh
# Issue 21 §4 ("every README command's output fits 100 columns"), tried as a new user would: every
# `    cbi ...` line of the README runs, in the order the README gives them, in an empty folder,
# exits 0, and prints no line wider than 100 columns (the terminal table's width; JSON and CSV are
# for machines and are exempt). Commands that need a GPU, a display or minutes of one core are
# named and skipped, never silently.
# usage: readme_commands.sh README.md BIN_DIR
set -eu
readme=$1
bin=$2
work=$(mktemp -d /tmp/cbi_readme_XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
PATH="$bin:$PATH"
ran=0
failed=0
grep -E '^    cbi ' "$readme" | sed -e 's/^    //' -e 's/   *#.*$//' > commands.txt
while IFS= read -r cmd; do
  case "$cmd" in
  *"cbi bench"* | *"--backend sim+gpu"* | *"_meas"*)
    echo "skipped (needs a GPU): $cmd"; continue ;;
  *"cbi view"*)
    echo "skipped (needs a display): $cmd"; continue ;;
  *"cbi tune"*"--size 1024"* | *"--model gpu"*"--size 1024"*)
    echo "skipped (minutes of one core; the speed is issue 18's benchmark): $cmd"; continue ;;
  esac
  ran=$((ran + 1))
  if ! sh -c "$cmd" > out.txt 2> err.txt; then
    echo "FAILED (exit $?): $cmd"; sed 's/^/  /' err.txt | head -5; failed=$((failed + 1)); continue
  fi
  case "$cmd" in
  *"--format json"* | *"--format csv"* | *"--csv -"*) continue ;;
  esac
  wide=$(awk 'length($0) > 100 { n++ } END { print n + 0 }' out.txt err.txt)
  if [ "$wide" -ne 0 ]; then
    echo "TOO WIDE ($wide lines over 100 columns): $cmd"
    awk 'length($0) > 100 { print "  " length($0) ": " substr($0, 1, 120) }' out.txt err.txt | head -5
    failed=$((failed + 1))
  fi
done < commands.txt
echo "$ran README commands ran, $failed failed"
[ "$ran" -gt 10 ] && [ "$failed" -eq 0 ]
