"""AI tournament benchmark: the figures in docs/ai.md and docs/performance.md.

    python benchmarks/ai_bench.py                 # 200 two-player games per map and pairing
    python benchmarks/ai_bench.py --games 50 --jobs 2 --maps usa,europe

Any option of `python -m ai.tournament` may be given; this script only sets the defaults.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.tournament import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
