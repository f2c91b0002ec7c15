"""Imitates an asyncio service: a crawler and a job pipeline on one event loop.  Producers feed
an asyncio.Queue, a pool of worker tasks "fetches" pages of a simulated site (no network: every
await is asyncio.sleep(0) or a queue/lock/event operation), follows links, and reports through
an async generator; requests are rate-limited with a Semaphore, a shared cache is guarded by a
Lock, shutdown uses an Event and task cancellation, and connections are async context managers
(a class with __aenter__/__aexit__ and one made with contextlib.asynccontextmanager).
Interpreter paths: coroutine creation, send and suspension, Task scheduling in the event loop,
futures and callbacks, async for / async with / async comprehensions, gather, CancelledError.
"""
import asyncio
import binascii
import contextlib
import sys

import trainlib

NAME = "tr_asyncio"


def site_links(page, n_pages):
    """The simulated site: each page links to a few others, deterministically."""
    h = binascii.crc32(("page-%d" % page).encode())
    return sorted({(h >> shift) % n_pages for shift in (0, 5, 11, 17)} | {(page * 7 + 1) % n_pages})


class Connection:
    """An async context manager that counts open connections."""

    opened = 0
    peak = 0

    def __init__(self, host):
        self.host = host

    async def __aenter__(self):
        Connection.opened += 1
        Connection.peak = max(Connection.peak, Connection.opened)
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, exc_type, exc, tb):
        Connection.opened -= 1
        return False

    async def fetch(self, page, n_pages):
        await asyncio.sleep(0)
        if page % 97 == 13:
            raise ConnectionError("page %d: connection reset" % page)
        body = " ".join("<a href='/p/%d'>link</a>" % link for link in site_links(page, n_pages))
        return "<html><title>Page %d</title>%s</html>" % (page, body)


@contextlib.asynccontextmanager
async def traced(journal, label):
    journal.append("enter " + label)
    try:
        yield label
    finally:
        journal.append("exit " + label)


class Crawler:
    def __init__(self, n_pages, workers, concurrency):
        self.n_pages = n_pages
        self.workers = workers
        self.queue = asyncio.Queue()
        self.limit = asyncio.Semaphore(concurrency)
        self.lock = asyncio.Lock()
        self.seen = set()
        self.pages = {}
        self.failures = []
        self.retries = {}

    async def enqueue(self, page):
        async with self.lock:
            if page in self.seen:
                return
            self.seen.add(page)
        await self.queue.put(page)

    async def worker(self):
        while True:
            page = await self.queue.get()
            try:
                async with self.limit, Connection("site") as conn:
                    html = await conn.fetch(page, self.n_pages)
                links = [int(part.split("'")[0]) for part in html.split("/p/")[1:]]
                self.pages[page] = len(html)
                for link in links:
                    await self.enqueue(link)
            except ConnectionError as exc:
                tries = self.retries.get(page, 0) + 1
                self.retries[page] = tries
                if tries < 3:
                    await self.queue.put(page)
                else:
                    self.failures.append(str(exc))
            finally:
                self.queue.task_done()

    async def crawl(self, start):
        tasks = [asyncio.create_task(self.worker(), name="worker-%d" % i) for i in range(self.workers)]
        await self.enqueue(start)
        await self.queue.join()
        for task in tasks:
            task.cancel()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        cancelled = sum(isinstance(o, asyncio.CancelledError) for o in outcomes)
        return cancelled


async def job_source(count):
    """An async generator of jobs."""
    for i in range(count):
        if i % 10 == 0:
            await asyncio.sleep(0)
        yield {"id": i, "size": (i * 37) % 101 + 1}


async def process(job):
    total = 0
    for step in range(job["size"] % 5 + 1):
        await asyncio.sleep(0)
        total += job["size"] * (step + 1)
    return job["id"], total


async def pipeline(count, stages):
    results = {}
    inbox = asyncio.Queue(maxsize=16)
    outbox = asyncio.Queue()
    finished = asyncio.Event()

    async def producer():
        async for job in job_source(count):
            await inbox.put(job)
        for _ in range(stages):
            await inbox.put(None)

    async def stage():
        handled = 0
        while (job := await inbox.get()) is not None:
            await outbox.put(await process(job))
            handled += 1
        return handled

    async def collector():
        while len(results) < count:
            jid, value = await outbox.get()
            results[jid] = value
        finished.set()

    collector_task = asyncio.create_task(collector())
    handled = await asyncio.gather(producer(), *[stage() for _ in range(stages)])
    await finished.wait()
    await collector_task
    big = [jid async for jid in async_filter(results, 500)]
    return handled[1:], results, big


async def async_filter(results, threshold):
    for jid in sorted(results):
        if results[jid] > threshold:
            yield jid


async def timeouts_and_cancellation(rounds):
    journal = []
    cancelled = 0
    for i in range(rounds):
        async with traced(journal, "round%d" % i):
            async def slow():
                for _ in range(1000):
                    await asyncio.sleep(0)
                return "slow"

            task = asyncio.create_task(slow())
            for _ in range(i % 5 + 1):
                await asyncio.sleep(0)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                cancelled += 1
        future = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_soon(future.set_result, i * 2)
        trainlib.check_equal(await future, i * 2, "future result")
        value = await asyncio.wait_for(process({"id": i, "size": 3}), timeout=None)
        trainlib.check_equal(value, (i, 30), "wait_for")
    return cancelled, len(journal), journal[:4]


async def amain(scale):
    Connection.opened = Connection.peak = 0
    crawler = Crawler(trainlib.reps(9800, scale), workers=8, concurrency=4)
    cancelled = await crawler.crawl(0)
    trainlib.check_equal(cancelled, 8, "workers cancelled")
    trainlib.check_equal(Connection.opened, 0, "connections closed")
    trainlib.check(Connection.peak <= 4, "semaphore bounds concurrency")
    trainlib.check_equal(len(crawler.pages) + len(crawler.failures), len(crawler.seen), "every page done once")
    count = trainlib.reps(32000, scale)
    handled, results, big = await pipeline(count, stages=6)
    trainlib.check_equal(sum(handled), count, "every job handled once")
    expected = {i: ((i * 37) % 101 + 1) * sum(range(1, ((i * 37) % 101 + 1) % 5 + 2)) for i in range(count)}
    trainlib.check(results == expected, "pipeline results")
    cancel_info = await timeouts_and_cancellation(trainlib.reps(980, scale))
    trainlib.check_equal(cancel_info[0], trainlib.reps(980, scale), "every slow task was cancelled")
    return (len(crawler.pages), sum(crawler.pages.values()), sorted(crawler.failures), len(big),
            sum(results.values()), cancel_info)


def main(scale):
    results = [asyncio.run(amain(scale)) for _ in range(2)]
    trainlib.check_equal(results[0], results[1], "two event loops did the same work")
    return trainlib.finish(NAME, results[0])


if __name__ == "__main__":
    sys.exit(main(trainlib.scale_argument()))
