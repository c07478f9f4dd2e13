"""Bots that play well: greedy (one-ply lookahead on the game's heuristic) and mcts
(determinized UCT). The simple ones (random, first) and what every bot is are in
simple.py; the seat registry, which names them all, sits above them in interpreter/agents.py."""
