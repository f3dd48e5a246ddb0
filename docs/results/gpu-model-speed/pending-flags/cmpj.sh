#!/bin/bash
for f in $1/*.json; do n=$(basename $f)
  diff <(grep -v -E '(git_commit|"seconds|"date|"command|host_)' $f) <(grep -v -E '(git_commit|"seconds|"date|"command|host_)' $2/$n) > /dev/null || echo "DIFF $n"
done; echo compared $(ls $2/*.json | wc -l)
