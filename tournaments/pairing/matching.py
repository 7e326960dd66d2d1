"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm).

Used by the Swiss pairing to answer one question fast: "can these players still all be
paired without a rematch?". Pure Python, no dependencies; vertices are ``0 .. n-1`` and
a matching is the list ``mate`` (``mate[v]`` = partner of ``v`` or ``-1``).

:func:`augment` searches one augmenting path from an exposed root (breadth-first, with
blossom contraction), in O(V^2) for the graphs here (V <= a few hundred), and applies it
if found. By Berge's lemma, a matching is maximum when no exposed vertex has one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


def augment(
    adj: Sequence[Sequence[int]], mate: list[int], root: int, alive: Sequence[bool]
) -> bool:
    """Find an augmenting path from the exposed vertex ``root`` in the subgraph of ``alive``
    vertices; if there is one, flip it in ``mate`` (in place) and return ``True``."""
    n = len(adj)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])

    def lca(x: int, y: int) -> int:
        seen = [False] * n
        while True:
            x = base[x]
            seen[x] = True
            if mate[x] == -1:
                break
            x = parent[mate[x]]
        while True:
            y = base[y]
            if seen[y]:
                return y
            y = parent[mate[y]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in adj[v]:
            if not alive[to] or base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                # An odd cycle: contract the blossom onto its base.
                cur = lca(v, to)
                blossom = [False] * n
                mark_path(v, cur, to, blossom)
                mark_path(to, cur, v, blossom)
                for i in range(n):
                    if alive[i] and blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    # Flip the path root .. to.
                    while to != -1:
                        pv = parent[to]
                        nxt = mate[pv]
                        mate[to] = pv
                        mate[pv] = to
                        to = nxt
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False


def maximum_matching(
    adj: Sequence[Sequence[int]], alive: Sequence[bool] | None = None
) -> list[int]:
    """A maximum matching of the graph (restricted to ``alive`` vertices)."""
    n = len(adj)
    live = list(alive) if alive is not None else [True] * n
    mate = [-1] * n
    # A greedy start leaves few exposed vertices for the (costlier) path searches.
    for v in range(n):
        if live[v] and mate[v] == -1:
            for to in adj[v]:
                if live[to] and mate[to] == -1 and to != v:
                    mate[v], mate[to] = to, v
                    break
    for v in range(n):
        if live[v] and mate[v] == -1:
            augment(adj, mate, v, live)
    return mate
