#!/bin/bash
# mkg.sh WT OUT: cbi with gpu_model.cpp compiled -O3 -g (rest as WT's build), into OUT
set -e
WT=$1; OUT=$2; T=$(mktemp -d)
/usr/bin/c++ -I$WT/sim/include -I$WT/remap/include -I$WT/base/include -O3 -DNDEBUG -g -std=gnu++17 -o $T/gdbg.o -c $WT/sim/src/gpu_model.cpp
cp $WT/build/sim/libcbi_sim.a $T/libsim.a
ar d $T/libsim.a gpu_model.cpp.o
cd $WT/build/experiments
/usr/bin/c++ -O3 -DNDEBUG CMakeFiles/cbi.dir/src/commands/*.o $T/gdbg.o -o $OUT -L/usr/local/cuda/targets/x86_64-linux/lib -Wl,-rpath,/usr/local/cuda/lib: libcbi_experiments.a ../config/libcbi_config.a ../cli/libcbi_cli.a /usr/lib/x86_64-linux-gnu/libboost_program_options.a $T/libsim.a ../kernels/libkernels.a /usr/local/cuda/lib/libcudart_static.a /usr/lib/x86_64-linux-gnu/librt.a /usr/local/cuda/lib/libcupti.so -ldl -lcudadevrt -lcudart_static -lrt -lpthread -ldl
echo built $OUT
