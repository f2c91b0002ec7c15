"""Imitates a threaded service on a free-threaded CPython (--disable-gil), where threads run
Python code at the same time: a pool of workers that parse and aggregate records into
per-thread tables merged under a lock, producers and consumers on queue.Queue, an executor
mapping a function over chunks, shared containers that several threads append to and update at
once (the per-object locks of the free-threaded build), and the synchronisation primitives
(Lock, RLock, Condition, Event, Barrier, Semaphore, threading.local).

Only the interleaving varies between runs: each thread's work is fixed by its index, shared
results are compared after sorting, so the checksum is the same in every run.  profopt trains
with this task only for a free-threaded build (Makefile.pre.in, PY_FREE_THREADED).
"""
import _thread
import gc
import queue
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from random import Random

import trainlib

NAME = "ft_threads"
WORKERS = 4


def make_lines(seed, count):
    rng = Random(seed)
    kinds = ("GET", "PUT", "POST", "DELETE")
    return ["%s /shop/%d/%s %d %d" % (kinds[rng.randrange(4)], rng.randrange(50),
                                      rng.choice("abcdefgh") * rng.randint(1, 6),
                                      rng.choice((200, 201, 404, 500)), rng.randrange(1, 5000))
            for _ in range(count)]


def parse_share(lines, totals, lock):
    """One worker: parse its lines into a private table, then merge it under the shared lock."""
    mine = {}
    for line in lines:
        method, path, status, size = line.split()
        key = (method, path.split("/")[2], int(status) // 100)
        row = mine.get(key)
        if row is None:
            mine[key] = [1, int(size)]
        else:
            row[0] += 1
            row[1] += int(size)
    with lock:
        for key, (hits, size) in mine.items():
            row = totals.setdefault(key, [0, 0])
            row[0] += hits
            row[1] += size


def pool_workout(seed):
    lines = make_lines(seed, 6000)
    totals, lock = {}, threading.Lock()
    shares = [lines[i::WORKERS] for i in range(WORKERS)]
    threads = [threading.Thread(target=parse_share, args=(share, totals, lock)) for share in shares]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted((key, tuple(row)) for key, row in totals.items())


def pipeline_workout(seed):
    """Producers put numbered jobs on a bounded queue, consumers square them and count words."""
    jobs, done = queue.Queue(maxsize=64), queue.Queue()
    rng = Random(seed)
    words = [" ".join(rng.choice(("ab", "cd", "ef", "gh")) for _ in range(rng.randint(1, 9)))
             for _ in range(3000)]

    def produce(part):
        for i in range(part, len(words), 2):
            jobs.put((i, words[i]))

    def consume():
        while True:
            item = jobs.get()
            if item is None:
                jobs.task_done()
                return
            i, text = item
            done.put((i, i * i % 9973, len(text.split())))
            jobs.task_done()

    consumers = [threading.Thread(target=consume) for _ in range(WORKERS)]
    producers = [threading.Thread(target=produce, args=(p,)) for p in range(2)]
    for t in consumers + producers:
        t.start()
    for t in producers:
        t.join()
    for _ in consumers:
        jobs.put(None)
    jobs.join()
    for t in consumers:
        t.join()
    results = []
    while not done.empty():
        results.append(done.get_nowait())
    trainlib.check_equal(len(results), len(words), "every job done once")
    return sorted(results)[::97]


def chunk_score(chunk):
    counts = {}
    for value in chunk:
        counts[value % 17] = counts.get(value % 17, 0) + value
    return sorted(counts.items())


def executor_workout(seed):
    rng = Random(seed)
    data = [rng.randrange(10 ** 6) for _ in range(20000)]
    chunks = [data[i:i + 500] for i in range(0, len(data), 500)]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        return list(pool.map(chunk_score, chunks))[::7]


def shared_containers_workout(seed):
    """Threads append to one list, update one dict and add to one set at once."""
    shared_list, shared_dict, shared_set = [], {}, set()
    barrier = threading.Barrier(WORKERS)
    local = threading.local()

    def mutate(index):
        local.rng = Random(seed * 10 + index)
        barrier.wait()
        for i in range(3000):
            value = local.rng.randrange(1000)
            shared_list.append((index, value))
            shared_dict[value % 211] = shared_dict.get(value % 211, 0) | (1 << index)
            shared_set.add(value)
            if i % 100 == 99:
                shared_dict.pop(value % 211, None)

    threads = [threading.Thread(target=mutate, args=(i,)) for i in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    trainlib.check_equal(len(shared_list), 3000 * WORKERS, "appends from every thread kept")
    return len(shared_list), sorted(shared_list)[::501], len(shared_set)


def handoff_workout(rounds):
    """A ping-pong of turns through a Condition, a bounded Semaphore and an Event."""
    cond, turn, log = threading.Condition(threading.RLock()), [0], []
    slots, finished = threading.BoundedSemaphore(2), threading.Event()

    def player(me):
        for r in range(rounds):
            with cond:
                cond.wait_for(lambda: turn[0] % 2 == me)
                with slots:
                    log.append((r, me))
                turn[0] += 1
                cond.notify_all()
        if me == 1:
            finished.set()

    threads = [threading.Thread(target=player, args=(me,)) for me in (0, 1)]
    for t in threads:
        t.start()
    finished.wait()
    for t in threads:
        t.join()
    trainlib.check_equal(log, [(r, me) for r in range(rounds) for me in (0, 1)], "turns alternate")
    return len(log)


def serve(scale, results):
    for r in range(trainlib.reps(12, scale)):
        results.append(pool_workout(r))
        results.append(pipeline_workout(r))
        results.append(executor_workout(r))
        results.append(shared_containers_workout(r))
        results.append(handoff_workout(300))


def main(scale):
    # The workload checks count the main thread's calls, so the main thread only starts the
    # service and waits: no Thread.start() (its wait depends on timing), and the service
    # collects its own garbage so no finalizer of its objects runs here.
    outcome, done = [], _thread.allocate_lock()

    def service():
        try:
            results = []
            serve(scale, results)
            outcome.append(trainlib.finish(NAME, results))
        except BaseException as exc:
            outcome.append(exc)
        finally:
            gc.collect()
            done.release()

    done.acquire()
    _thread.start_new_thread(service, ())
    done.acquire()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
