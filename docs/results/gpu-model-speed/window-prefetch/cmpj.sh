#!/bin/bash
# cmpj.sh A B: the JSON of two jsons.sh dirs, less date, command, commit, seconds
for f in $1/*.json; do n=$(basename $f)
  diff <(grep -v -E '(git_commit|"seconds|"date|"command)' $f) <(grep -v -E '(git_commit|"seconds|"date|"command)' $2/$n) > /dev/null || echo "DIFF $n"
done; echo compared $(ls $2/*.json | wc -l)
