"""A lane whose bytes cross a 32-byte sector boundary asks for both sectors, in a workload of your
own and in a trace, in the GPU model's coalescer as in the sequential simulator (hand counts)."""
import numpy as np

import cbi

# One warp of 32 lanes, lane l loading 16 bytes at byte 16 l + 8: together bytes 8..519, sectors
# 0..16 (17 sectors) in lines 0..4 (5 lines). Every odd lane crosses a sector boundary (its bytes
# 32k + 24 .. 32k + 39); counted by first byte only, the request would have 16 sectors.
ADDRESSES = (16 * np.arange(32) + 8).astype(np.uint64).reshape(1, 32, 1)
TRACE = """-kernel name = crossing
-kernel id = 1
-grid dim = (1,1,1)
-block dim = (32,1,1)
-shmem = 0
-nregs = 8
-binary version = 61
-cuda stream id = 0
-shmem base_addr = 0x00007fd194000000
-local mem base_addr = 0x00007fd192000000
-nvbit version = 1.5.5
-accelsim tracer version = 4
-enable lineinfo = 0

#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]

#BEGIN_TB

thread block = 0,0,0

warp = 0
insts = 2
0098 ffffffff 1 R4 LDG.E.128 1 R4 16 1 0x7fd165500008 16
00a0 ffffffff 0 EXIT 0 0
#END_TB
"""


def check_gpu(workload):
    g = cbi.simulate_gpu(workload=workload, device="h100")
    m = g["metrics"]
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 1
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 17
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"] == 17
    assert m["lts__t_sectors_srcunit_tex_op_read.sum"] == 17


def check_sequential(workload):
    # 16 lanes in one sector, 16 in two: 48 sector accesses, 17 distinct sectors missed once each.
    l1 = cbi.simulate(workload=workload, line_bytes=32, cache_bytes="4KiB")["rows"][0]
    assert (l1["accesses"], l1["misses"]) == (48, 17)


def test_a_workload_of_your_own_counts_every_sector_a_lane_touches():
    mine = cbi.Workload(ADDRESSES, bytes=16)
    check_gpu(mine)
    check_sequential(mine)


def test_a_trace_counts_every_sector_a_lane_touches(tmp_path):
    path = tmp_path / "kernel-1.traceg"
    path.write_text(TRACE)
    trace = cbi.read_trace(str(path))
    check_gpu(trace)
    check_sequential(trace)


def test_aligned_lanes_are_unchanged():
    # The same warp at byte 16 l: no lane crosses, 16 sectors.
    aligned = cbi.Workload((16 * np.arange(32)).astype(np.uint64).reshape(1, 32, 1), bytes=16)
    g = cbi.simulate_gpu(workload=aligned, device="h100")
    assert g["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 16
