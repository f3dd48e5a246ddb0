#!/bin/bash
# ir.sh NAME ARGS... : instruction count of one replay (base binary), and its user time
n=$1; shift
valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null /tmp/sp/cbi-base simulate --model gpu --jobs 1 "$@" > /dev/null 2> /tmp/sp/ir.$n.err
echo "$n $(grep 'I   refs' /tmp/sp/ir.$n.err | awk '{print $4}')" >> /tmp/sp/ir.log
