"""
The awaitable waits: ``wait_for_event_async`` and ``WebhookReceiver.wait_for_async`` leave the event
loop free while they wait (a blocking wait would finish, or time out, before the loop ran anything
else), and time out as the blocking waits do. Run with asyncio.run, so without pytest-asyncio.
"""

from __future__ import annotations

import asyncio

import pytest

from support import pay
from test_receiver import SECRET, deliver, event
from wallet_sandbox import EventWaitTimeout, SandboxAccount, WebhookReceiver


def test_wait_for_event_async_lets_the_loop_run_until_the_event_comes(sandbox_account: SandboxAccount) -> None:
    payment = pay(sandbox_account)

    async def scenario() -> dict:
        waiting = asyncio.create_task(sandbox_account.wait_for_event_async("payment.failed", object_id=payment["id"], timeout=20))
        await asyncio.sleep(0)  # The wait begins: it sends its long poll, and gives the loop back.
        assert not waiting.done()
        await asyncio.to_thread(sandbox_account.fail_payment, payment["id"])
        return await waiting

    assert asyncio.run(scenario())["data"]["object"]["status"] == "failed"


def test_wait_for_event_async_times_out_as_wait_for_event_does(sandbox_account: SandboxAccount) -> None:
    payment = pay(sandbox_account)
    with pytest.raises(EventWaitTimeout) as waited:
        asyncio.run(sandbox_account.wait_for_event_async("payment.failed", object_id=payment["id"], timeout=0.2))
    assert str(waited.value).startswith(f"No payment.failed event of {payment['id']} on the account of {sandbox_account.api_key} within 0.2 s; its last events were: payment.created")


def test_the_receivers_wait_for_async_lets_the_loop_run_until_the_delivery_comes(webhook_receiver: WebhookReceiver) -> None:
    webhook_receiver.secret = SECRET

    async def scenario() -> dict:
        waiting = asyncio.create_task(webhook_receiver.wait_for_async("payment.failed", object_id="pay_1", timeout=20))
        await asyncio.sleep(0)
        assert not waiting.done()
        await asyncio.to_thread(deliver, webhook_receiver, event(1, "payment.created"))
        assert not waiting.done()
        await asyncio.to_thread(deliver, webhook_receiver, event(2, "payment.failed"))
        return await waiting

    assert asyncio.run(scenario())["id"] == "evt_2"


def test_the_receivers_wait_for_async_times_out_as_wait_for_does(webhook_receiver: WebhookReceiver) -> None:
    webhook_receiver.secret = SECRET
    deliver(webhook_receiver, event(1, "payment.created"))
    with pytest.raises(AssertionError) as waited:
        asyncio.run(webhook_receiver.wait_for_async("payment.failed", timeout=0.1))
    assert str(waited.value) == f"Waited 0.1 s for a payment.failed delivery at {webhook_receiver.url}; 1 arrived, the last: payment.created pay_1 (evt_1)."
