"""Games written by hand in plain Python, the yardsticks of tools/bench_peers.py."""
