// The sweep engine behind `cbi sweep` and `cbi reproduce`, one header per job: typed points and
// axes (point.hpp, axis.hpp), grids and shards (grid.hpp), the CSV store with --resume and merge
// (store.hpp), and the runner (runner.hpp). The progress bar is cli's (cbi/cli/progress.hpp).
#pragma once

#include "grid.hpp"
#include "runner.hpp"
#include "store.hpp"
