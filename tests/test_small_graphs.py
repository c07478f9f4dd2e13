"""The longest rising trail query against brute force on random small graphs."""
from __future__ import annotations

import itertools
import random

from interpreter.lang.runtime import Ctx
from interpreter.verbs.small_graphs import connected_groups, longest_rising_trail


def brute(values: dict, links: list, all_linked: bool) -> int:
    nodes = sorted(values)
    adj = {n: set() for n in nodes}
    if all_linked:
        for a, b in itertools.permutations(nodes, 2):
            adj[a].add(b)
    for a, b in links:
        if a in adj and b in adj:
            adj[a].add(b)
            adj[b].add(a)
    best = 0

    def walk(path: list) -> None:
        nonlocal best
        best = max(best, len(path))
        for m in adj[path[-1]]:
            if m not in path and values[m] - values[path[-1]] in (0, 1):
                walk(path + [m])
    for n in nodes:
        walk([n])
    return best


def is_trail(path: list, values: dict, links: list, all_linked: bool) -> bool:
    pairs = {frozenset(l) for l in links}
    return len(set(path)) == len(path) and all(
        values[b] - values[a] in (0, 1) and (all_linked or frozenset((a, b)) in pairs)
        for a, b in zip(path, path[1:]))


def test_longest_rising_trail_matches_brute_force():
    rnd = random.Random(5)
    c = Ctx({}, None, {})
    for _ in range(300):
        n = rnd.randint(1, 8)
        nodes = [f"s{i}" for i in range(n)]
        values = {s: rnd.randint(1, 4) for s in nodes if rnd.random() < 0.9}
        links = [[a, b] for a, b in itertools.combinations(nodes, 2) if rnd.random() < 0.35]
        all_linked = rnd.random() < 0.2
        got = longest_rising_trail(c, values, links, all_linked, None)
        assert len(got) == brute(values, links, all_linked), (values, links, all_linked, got)
        assert is_trail(got, values, links, all_linked)


def test_printed_number_out_of_reach_and_groups():
    c = Ctx({}, None, {})
    # a line 1-2-3 with a second 3 hanging off the 2: only one 3 can be used
    values = {"a": 1, "b": 2, "c": 3, "d": 3}
    links = [["a", "b"], ["b", "c"], ["b", "d"]]
    assert len(longest_rising_trail(c, values, links, False, None)) == 3
    assert connected_groups(c, ["a", "b", "c", "x"], links) == [["a", "b", "c"], ["x"]]
