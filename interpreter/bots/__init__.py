"""Bots that play well: greedy (one-ply lookahead on the game's heuristic) and mcts
(determinized UCT). The simple ones (random, first) and the seat registry are in
interpreter/agents.py."""
