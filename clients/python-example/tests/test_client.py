"""EngineClient against the real engine, using the test methods (--conformance-methods)."""

import asyncio
import logging
import time
import uuid

import pytest

from stol_client import (
    EngineClient,
    EngineError,
    EngineExited,
    EngineNotFound,
    InternalError,
    InvalidParams,
    MethodNotFound,
    Progress,
    RequestCancelled,
    ServerShutDown,
)


async def test_initialize_and_ping(start_engine):
    async with start_engine() as client:
        info = client.server_info
        assert info["protocolVersion"] == "1.0"
        assert info["serverInfo"]["name"] == "stol-engine"
        assert info["capabilities"].get("cancellation") is True
        assert info["capabilities"].get("progress") is True
        assert await client.ping() == {}


async def test_concurrent_calls_matched_by_id(start_engine):
    async with start_engine() as client:
        finished = []

        async def sleep(ms):
            result = await client.call("test/sleep", ms=ms)
            finished.append(ms)
            return result

        t0 = time.monotonic()
        results = await asyncio.gather(sleep(800), sleep(50), sleep(400), sleep(0))
        elapsed = time.monotonic() - t0
        assert results == [{"slept": 800}, {"slept": 50}, {"slept": 400}, {"slept": 0}]
        assert finished == [0, 50, 400, 800], "shorter sleeps must be answered first"
        # All four were in flight together: far less than the 1.25 s they would take in turn.
        assert elapsed < 1.15, f"took {elapsed:.2f}s"


async def test_many_requests_in_flight(start_engine):
    async with start_engine() as client:
        results = await asyncio.gather(*(client.call("subtract", minuend=i, subtrahend=1)
                                         for i in range(200)))
        assert results == [i - 1 for i in range(200)]


async def test_notification_delivered_to_callback_and_iterator(start_engine):
    async with start_engine() as client:
        got = []
        unsubscribe = client.on_notification("x/y", got.append)
        everything = []
        client.on_notification("*", lambda n: everything.append(n.method))
        async with client.notifications("x/y") as sub:
            params = {"answer": 42, "nested": {"list": [1, "two", None]}, "text": "Löwe\u2028"}
            assert await client.call("test/notify", method="x/y", params=params) == {}
            # The engine sends the notification before its response, so it is already here.
            assert [(n.method, n.params) for n in got] == [("x/y", params)]
            note = await sub.get(timeout=5)
            assert note.method == "x/y" and note.params == params
        assert "x/y" in everything
        unsubscribe()
        await client.call("test/notify", method="x/y", params={"again": True})
        assert len(got) == 1


async def test_async_callback_is_run(start_engine):
    async with start_engine() as client:
        seen = asyncio.Event()

        async def callback(note):
            seen.set()

        client.on_notification("x/async", callback)
        await client.call("test/notify", method="x/async", params={})
        await asyncio.wait_for(seen.wait(), 5)


async def test_long_lines(start_engine):
    """Messages of several megabytes go through in both directions."""
    async with start_engine() as client:
        blob = "ü" * (3 * 1024 * 1024)  # 6 MiB of UTF-8
        got = []
        client.on_notification("x/big", got.append)
        await client.call("test/notify", method="x/big", params={"blob": blob})
        assert got and got[0].params["blob"] == blob
        assert await client.ping() == {}


async def test_progress_callback(start_engine):
    async with start_engine() as client:
        events = []
        raw_after_result = []
        result_received = False

        def on_raw(note):
            if result_received:
                raw_after_result.append(note)

        client.on_notification("$/progress", on_raw)
        result = await client.call("test/progress", steps=5, delayMs=10, progress=events.append)
        result_received = True
        assert result == {"steps": 5}
        assert events, "no progress was reported"
        assert all(isinstance(e, Progress) for e in events)
        kinds = [e.kind for e in events]
        assert kinds[0] == "begin", kinds
        assert kinds[-1] == "end", kinds
        assert set(kinds[1:-1]) <= {"report"}, kinds
        assert "report" in kinds, kinds
        fractions = [e.value["fraction"] for e in events if e.kind == "report"]
        assert all(0 <= f <= 1 for f in fractions), fractions
        assert fractions == sorted(fractions), f"fraction decreased: {fractions}"
        assert len({e.token for e in events}) == 1
        await asyncio.sleep(0.2)
        assert raw_after_result == [], "progress notification after the response"


async def test_no_progress_without_token(start_engine):
    async with start_engine() as client:
        notes = []
        client.on_notification("$/progress", notes.append)
        assert await client.call("test/progress", steps=3, delayMs=1) == {"steps": 3}
        await asyncio.sleep(0.1)
        assert notes == []


async def test_concurrent_progress_routed_by_token(start_engine):
    async with start_engine() as client:
        a, b = [], []
        await asyncio.gather(
            client.call("test/progress", steps=4, delayMs=5, progress=a.append),
            client.call("test/progress", steps=6, delayMs=5, progress=b.append))
        assert a and b
        assert len({e.token for e in a}) == 1 and len({e.token for e in b}) == 1
        assert a[0].token != b[0].token


async def test_cancelling_the_awaiting_task(start_engine):
    """Cancelling the task that awaits call() raises asyncio.CancelledError in it at once and
    sends $/cancelRequest; the engine answers -32800 and stays usable."""
    answers = []

    def trace(direction, msg):
        answers.append((direction, msg))

    async with start_engine(trace=trace) as client:
        task = asyncio.ensure_future(client.call("test/sleep", ms=10000))
        await asyncio.sleep(0.3)
        t0 = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert time.monotonic() - t0 < 1
        sent = [m for d, m in answers if d == "send" and m.get("method") == "test/sleep"]
        request_id = sent[0]["id"]
        assert ("send", {"jsonrpc": "2.0", "method": "$/cancelRequest",
                         "params": {"id": request_id}}) in answers
        # The engine's answer to the cancelled request arrives soon, as -32800.
        for _ in range(50):
            replies = [m for d, m in answers if d == "recv" and m.get("id") == request_id]
            if replies:
                break
            await asyncio.sleep(0.1)
        assert replies, "the engine never answered the cancelled request"
        assert replies[0]["error"]["code"] == -32800
        assert replies[0]["error"]["data"]["kind"] == "cancelled"
        assert await client.call("test/sleep", ms=10) == {"slept": 10}


async def test_cancel_through_call_handle(start_engine):
    """Call.cancel() waits for the engine's answer; awaiting the call then raises
    RequestCancelled (-32800, kind "cancelled")."""
    async with start_engine() as client:
        call = await client.request("test/sleep", ms=10000)
        await asyncio.sleep(0.2)
        t0 = time.monotonic()
        assert await call.cancel(timeout=5) is True
        assert time.monotonic() - t0 < 2
        with pytest.raises(RequestCancelled) as info:
            await call
        assert info.value.code == -32800
        assert info.value.kind == "cancelled"
        # Cancelling a finished request is harmless.
        done = await client.request("test/sleep", ms=1)
        assert await done == {"slept": 1}
        assert await done.cancel() is False
        assert await client.ping() == {}


async def test_timeout_cancels(start_engine):
    async with start_engine() as client:
        with pytest.raises(asyncio.TimeoutError):
            await client.call("test/sleep", ms=10000, timeout=0.2)
        assert await client.ping() == {}


async def test_error_mapping(start_engine):
    async with start_engine() as client:
        with pytest.raises(InternalError) as info:
            await client.call("test/fail")
        assert info.value.code == -32603
        assert info.value.kind == "internal"

        with pytest.raises(MethodNotFound) as info:
            await client.call("no/suchMethod")
        assert info.value.code == -32601
        assert info.value.kind == "methodNotFound"
        assert info.value.data.get("method") == "no/suchMethod"

        with pytest.raises(InvalidParams) as info:
            await client.call("subtract", minuend="forty-two", subtrahend=23)
        assert info.value.code == -32602
        assert info.value.kind == "invalidParams"
        assert isinstance(info.value, EngineError)

        with pytest.raises(InvalidParams):
            await client.call("test/sleep", ms=-5)
        with pytest.raises(InvalidParams):
            await client.call("test/sleep")

        # Both param forms of subtract work.
        assert await client.call("subtract", [42, 23]) == 19
        assert await client.call("subtract", {"minuend": 42, "subtrahend": 23}) == 19
        assert await client.call("sum", [1, 2, 4]) == 7


async def test_clean_close(start_engine):
    client = await start_engine()
    assert client.is_running
    assert await client.close() == 0
    assert client.returncode == 0
    assert await client.close() == 0  # idempotent
    with pytest.raises(EngineExited):
        await client.call("ping")


async def test_close_cancels_what_is_still_running(start_engine):
    """The engine answers shutdown only after every earlier request, so close() cancels a long
    request first: it ends with -32800 and closing does not wait it out."""
    client = await start_engine()
    slow = await client.request("test/sleep", {"ms": 20000})
    await asyncio.sleep(0.2)
    t0 = time.monotonic()
    assert await client.close() == 0
    assert time.monotonic() - t0 < 4
    with pytest.raises((RequestCancelled, EngineExited)):
        await slow


async def test_context_manager_closes(start_engine):
    async with start_engine() as client:
        await client.ping()
    assert client.returncode == 0


async def test_shutdown_then_requests_are_refused(start_engine):
    async with start_engine() as client:
        assert await client.call("shutdown") is None
        with pytest.raises(ServerShutDown) as info:
            await client.call("ping")
        assert info.value.code == -32001 and info.value.kind == "serverShutDown"
    assert client.returncode == 0


async def test_engine_death_fails_pending_calls(start_engine):
    async with start_engine() as client:
        pending = asyncio.ensure_future(client.call("test/sleep", ms=10000))
        await asyncio.sleep(0.2)
        client.process.kill()
        with pytest.raises(EngineExited) as info:
            await asyncio.wait_for(pending, 10)
        assert info.value.returncode is not None and info.value.returncode != 0
        with pytest.raises(EngineExited):
            await client.call("ping")
    assert not client.is_running


async def test_stderr_is_forwarded_to_logging(start_engine, caplog):
    marker = f"stderr-marker-{uuid.uuid4()}"
    caplog.set_level(logging.DEBUG, logger="stol_client.engine")
    async with start_engine() as client:
        assert await client.call("test/print", text=marker) == {}
        # stdout carries only protocol messages: the stream is still intact.
        assert await client.ping() == {}
    # After close every stderr line has been read and logged.
    lines = [r.getMessage() for r in caplog.records if r.name == "stol_client.engine"]
    assert any(marker in line for line in lines), lines[-20:]


async def test_missing_engine_raises_engine_not_found(tmp_path):
    with pytest.raises(EngineNotFound):
        await EngineClient.start(tmp_path / "no-such-engine")


async def test_discover(start_engine):
    """rpc.discover answers with an OpenRPC document on one line."""
    async with start_engine() as client:
        doc = await client.call("rpc.discover", timeout=10)
        assert isinstance(doc, dict)
        names = await client.method_names()
        assert isinstance(names, set)
