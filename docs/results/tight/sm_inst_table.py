#!/usr/bin/env python3
"""Tables of docs/results/tight/sm.md §2: warp instructions per warp as ncu measured them on the
H200 (smsp__inst_executed.sum / warps) against the GPU model's count (instructions_per_task + the
order's fast_remap_instructions), and the issue rate (instructions / (132 SMs x
sm__cycles_elapsed.max)).

usage: python3 sm_inst_table.py   (run in docs/results/tight; reads sm/inst/inst.csv from
kernels/scripts/sm_inst.sh and sm/fresh/inst.csv from kernels/scripts/sm_fresh.sh)"""
import collections, csv

FAST = {'linear': 0, 'column': 16.5, 'zigzag': 19, 'tile': 34, 'hilbert': 34 + 35 * 6}


def fast(order):
    return FAST[order.split(':')[0]]


def model(kernel, typ, x, order):  # x: window side or depth
    if kernel == 'stencil':
        base = (5 if typ == 'half' else 4) * x * x + 4 * x + (28 if typ == 'float' else 29)
    else:
        base = 8 * x + 44 if typ == 'half' else 4.5625 * x + 53
    return base + fast(order)


def launches(path):
    rows = collections.OrderedDict()
    for r in csv.reader(open(path)):
        rows.setdefault((r[0], int(r[1])), {})[r[-3]] = float(r[-1].replace(',', ''))
    return rows


ORDERS = ('linear,column:4,column:16,column:32,column:256,tile:16,tile:32x8,tile:8,zigzag:32,'
          'zigzag:64,hilbert:64').split(',')
TYPES = ('half', 'float', 'double')


def row(name, warps, d, kernel, typ, x, order):
    per = d['smsp__inst_executed.sum'] / warps
    m = model(kernel, typ, x, order)
    rate = d['smsp__inst_executed.sum'] / (132 * d['sm__cycles_elapsed.max'])
    print(f'| {name} | {order} | {per:.1f} | {m:.1f} | {m / per:.3f} | {rate:.2f} |')


print('| launch | order | measured per warp | model | model / measured | issue rate (per SM per cycle) |')
print('| --- | --- | --- | --- | --- | --- |')
for (tag, i), d in launches('sm/inst/inst.csv').items():
    if tag.startswith('st-') and tag[3].isdigit():
        s = int(tag[3:].split('x')[0])
        row(f'stencil {s}x{s} {TYPES[i]} 2048x1024', 2048 * 1024 // 32, d, 'stencil', TYPES[i], s, 'linear')
    elif tag == 'st-orders':
        row('stencil 5x5 float 2048x1024', 2048 * 1024 // 32, d, 'stencil', 'float', 5, ORDERS[i])
    elif tag.startswith('mm-d'):
        depth = int(tag[4:])
        row(f'matmul {TYPES[i]} 1024x512 D {depth}', 1024 * 512 // 32, d, 'matmul', TYPES[i], depth, 'linear')
    elif tag == 'mm-orders':
        row('matmul float 1024x512 D 128', 1024 * 512 // 32, d, 'matmul', 'float', 128, ORDERS[i])
print()
print('Remap math div (listing 5\'s divisions; not modelled): ', end='')
print(', '.join(f"{o} {d['smsp__inst_executed.sum'] / 65536:.0f}" for (tag, i), d in
                launches('sm/inst/inst.csv').items() if tag == 'st-div'
                for o in [('linear', 'column:32', 'tile:16')[i]]), 'per warp (stencil 5x5 float)')
print()
X = {'X1': ('matmul', 1536, 832, 544, 'float'), 'X2': ('matmul', 704, 1920, 736, 'half'),
     'X3': ('matmul', 1792, 960, 416, 'double'), 'X4': ('matmul', 1152, 1408, 608, 'float'),
     'X5': ('matmul', 2432, 576, 288, 'half'), 'X6': ('matmul', 960, 1664, 672, 'double'),
     'X7': ('stencil', 4352, 2176, 9, 'float'), 'X8': ('stencil', 2688, 3456, 5, 'half'),
     'X9': ('stencil', 7424, 1024, 3, 'double')}
print('| group | order | measured per warp | model | model / measured | issue rate (per SM per cycle) |')
print('| --- | --- | --- | --- | --- | --- |')
for (g, i), d in launches('sm/fresh/inst.csv').items():
    k, w, h, x, t = X[g]
    row(f'{g} ({k} {t})', (w * h + 31) // 32, d, k, t, x, ('linear', 'column:32', 'tile:16')[i])
