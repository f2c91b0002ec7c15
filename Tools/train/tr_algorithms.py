"""Imitates the algorithmic core of route-planning and puzzle programs: a random road network
searched with breadth-first search, Dijkstra (heapq) and Bellman-Ford, a minimum spanning tree
by Kruskal (union-find) and by Prim, a topological sort, dynamic programming (edit distance,
longest common subsequence, knapsack with functools.lru_cache), bisect-maintained sorted
lists, and backtracking solvers for n-queens and sudoku.  Interpreter paths: tight loops over
lists and dicts, tuple comparison in heaps, recursion, closures over sets, comprehensions,
sorting with key functions, small-int arithmetic.
"""
import bisect
import heapq
import sys
from collections import deque
from functools import lru_cache
from random import Random

import trainlib

NAME = "tr_algorithms"


def random_road_network(rng, n_nodes, extra_edges):
    """An undirected connected graph: a random spanning tree plus extra roads."""
    adj = {v: [] for v in range(n_nodes)}
    edges = []

    def connect(a, b, w):
        adj[a].append((b, w))
        adj[b].append((a, w))
        edges.append((w, a, b))

    for v in range(1, n_nodes):
        connect(v, rng.randrange(v), rng.randrange(1, 100))
    for _ in range(extra_edges):
        a, b = rng.randrange(n_nodes), rng.randrange(n_nodes)
        if a != b:
            connect(a, b, rng.randrange(1, 100))
    return adj, edges


def hop_distances(adj, source):
    dist = {source: 0}
    queue = deque([source])
    while queue:
        v = queue.popleft()
        for w, _ in adj[v]:
            if w not in dist:
                dist[w] = dist[v] + 1
                queue.append(w)
    return dist


def dijkstra(adj, source):
    dist = {source: 0}
    prev = {}
    heap = [(0, source)]
    while heap:
        d, v = heapq.heappop(heap)
        if d > dist.get(v, d):
            continue
        for w, weight in adj[v]:
            nd = d + weight
            if nd < dist.get(w, nd + 1):
                dist[w] = nd
                prev[w] = v
                heapq.heappush(heap, (nd, w))
    return dist, prev


def bellman_ford(n_nodes, edges, source):
    inf = float("inf")
    dist = [inf] * n_nodes
    dist[source] = 0
    for _ in range(n_nodes - 1):
        changed = False
        for w, a, b in edges:
            if dist[a] + w < dist[b]:
                dist[b] = dist[a] + w
                changed = True
            if dist[b] + w < dist[a]:
                dist[a] = dist[b] + w
                changed = True
        if not changed:
            break
    return dist


def route_to(prev, source, target):
    path = [target]
    while path[-1] != source:
        path.append(prev[path[-1]])
    path.reverse()
    return path


class DisjointSets:
    def __init__(self, n):
        self.parent = list(range(n))
        self.rank = [0] * n

    def find(self, x):
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:  # path compression
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self.rank[ra] < self.rank[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        if self.rank[ra] == self.rank[rb]:
            self.rank[ra] += 1
        return True


def kruskal_weight(n_nodes, edges):
    sets = DisjointSets(n_nodes)
    return sum(w for w, a, b in sorted(edges) if sets.union(a, b))


def prim_weight(adj):
    start = next(iter(adj))
    seen = {start}
    heap = [(w, v) for v, w in adj[start]]
    heapq.heapify(heap)
    total = 0
    while heap and len(seen) < len(adj):
        w, v = heapq.heappop(heap)
        if v in seen:
            continue
        seen.add(v)
        total += w
        for u, wu in adj[v]:
            if u not in seen:
                heapq.heappush(heap, (wu, u))
    return total


def topological_order(deps):
    indegree = {task: 0 for task in deps}
    users = {task: [] for task in deps}
    for task, needs in deps.items():
        for need in needs:
            indegree[task] += 1
            users[need].append(task)
    ready = sorted(t for t, d in indegree.items() if d == 0)
    order = []
    while ready:
        task = ready.pop(0)
        order.append(task)
        for user in users[task]:
            indegree[user] -= 1
            if indegree[user] == 0:
                bisect.insort(ready, user)
    if len(order) != len(deps):
        raise ValueError("dependency cycle")
    return order


def edit_distance(a, b):
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        diag, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            diag, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diag + (ca != cb))
    return row[-1]


def longest_common_subsequence(a, b):
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            out.append(a[i])
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return "".join(out)


def best_knapsack(items, capacity):
    @lru_cache(maxsize=None)
    def best(k, room):
        if k == len(items):
            return 0
        weight, value = items[k]
        skip = best(k + 1, room)
        return max(skip, value + best(k + 1, room - weight)) if weight <= room else skip

    result = best(0, capacity)
    info = best.cache_info()
    best.cache_clear()
    return result, info.misses


def count_queens(n):
    cols, diag1, diag2 = set(), set(), set()

    def place(row):
        if row == n:
            return 1
        found = 0
        for col in range(n):
            if col in cols or row + col in diag1 or row - col in diag2:
                continue
            cols.add(col)
            diag1.add(row + col)
            diag2.add(row - col)
            found += place(row + 1)
            cols.remove(col)
            diag1.remove(row + col)
            diag2.remove(row - col)
        return found

    return place(0)


SUDOKU = ("53..7...."
          "6..195..."
          ".98....6."
          "8...6...3"
          "4..8.3..1"
          "7...2...6"
          ".6....28."
          "...419..5"
          "....8..79")
SUDOKU_SOLUTION = ("534678912672195348198342567859761423426853791713924856961537284287419635345286179")


def solve_sudoku(puzzle):
    grid = [0 if ch == "." else int(ch) for ch in puzzle]
    peers = [sorted({r * 9 + c for r in range(9) for c in range(9)
                     if (r == i // 9 or c == i % 9 or (r // 3, c // 3) == (i // 27, i % 9 // 3))} - {i})
             for i in range(81)]

    def candidates(i):
        used = {grid[p] for p in peers[i]}
        return [d for d in range(1, 10) if d not in used]

    def fill():
        best_i, best_c = None, None
        for i in range(81):
            if grid[i] == 0:
                c = candidates(i)
                if best_c is None or len(c) < len(best_c):
                    best_i, best_c = i, c
                    if len(c) <= 1:
                        break
        if best_i is None:
            return True
        for d in best_c:
            grid[best_i] = d
            if fill():
                return True
        grid[best_i] = 0
        return False

    if not fill():
        raise ValueError("no solution")
    return "".join(map(str, grid))


def graph_workout(rng, n_nodes):
    adj, edges = random_road_network(rng, n_nodes, n_nodes * 2)
    hops = hop_distances(adj, 0)
    trainlib.check_equal(len(hops), n_nodes, "BFS reaches every node")
    dist, prev = dijkstra(adj, 0)
    if n_nodes <= 400:
        bf = bellman_ford(n_nodes, edges, 0)
        trainlib.check(all(bf[v] == dist[v] for v in range(n_nodes)), "Dijkstra agrees with Bellman-Ford")
    far = max(range(n_nodes), key=lambda v: (dist[v], -v))
    path = route_to(prev, 0, far)
    # parallel roads may exist: a route uses the shortest of them
    length = sum(min(w for v, w in adj[a] if v == b) for a, b in zip(path, path[1:]))
    trainlib.check_equal(length, dist[far], "the route's length is the distance")
    trainlib.check(len(path) - 1 >= hops[far], "no route is shorter than the hop distance")
    mst = kruskal_weight(n_nodes, edges)
    trainlib.check_equal(prim_weight(adj), mst, "Prim agrees with Kruskal")
    return far, dist[far], len(path), mst, sum(hops.values())


def dynamic_programming_workout(rng, words):
    trainlib.check_equal(edit_distance("kitten", "sitting"), 3, "edit distance kitten/sitting")
    trainlib.check_equal(longest_common_subsequence("AGGTAB", "GXTXAYB"), "GTAB", "LCS")
    total = 0
    for a, b in zip(words, words[1:]):
        d = edit_distance(a, b)
        trainlib.check(d == edit_distance(b, a) and d <= max(len(a), len(b)), "edit distance symmetry")
        lcs = longest_common_subsequence(a, b)
        trainlib.check(d >= max(len(a), len(b)) - len(lcs), "edit distance vs LCS")
        total += d * 100 + len(lcs)
    items = [(rng.randrange(3, 30), rng.randrange(1, 60)) for _ in range(40)]
    value, subproblems = best_knapsack(tuple(items), 200)
    return total, value, subproblems


def sorted_list_workout(rng, count):
    ranked = []
    keys = []
    for i in range(count):
        score = rng.randrange(10000)
        pos = bisect.bisect_right(keys, score)
        keys.insert(pos, score)
        ranked.insert(pos, "player%d" % i)
    trainlib.check(keys == sorted(keys), "bisect keeps order")
    lo, hi = bisect.bisect_left(keys, 2500), bisect.bisect_right(keys, 7500)
    percentile = [keys[int(p * (len(keys) - 1) / 100)] for p in (10, 50, 90)]
    deps = {"t%03d" % i: ["t%03d" % j for j in range(max(0, i - 5), i) if (i * j) % 3 == 0] for i in range(300)}
    order = topological_order(deps)
    position = {t: k for k, t in enumerate(order)}
    trainlib.check(all(position[d] < position[t] for t, ds in deps.items() for d in ds), "topological order")
    return hi - lo, percentile, ranked[:3], order[:5]


def main(scale):
    rng = Random(1234)
    words = ["".join(rng.choice("acgt") for _ in range(rng.randrange(8, 24))) for _ in range(160)]
    results = []
    for rep in range(trainlib.reps(66, scale)):
        results.append(graph_workout(rng, 1200 if rep % 2 else 300))
        results.append(dynamic_programming_workout(rng, words[rep % 4::4]))
        results.append(sorted_list_workout(rng, 2000))
    trainlib.check_equal(count_queens(6 if scale < 0.5 else 8), 4 if scale < 0.5 else 92, "n-queens")
    trainlib.check_equal(solve_sudoku(SUDOKU), SUDOKU_SOLUTION, "sudoku")
    return trainlib.finish(NAME, results)


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
