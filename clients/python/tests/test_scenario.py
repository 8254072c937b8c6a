"""
The scenario every helper runs in its own language (docs/development.md lists them side by side):
pay, force a failure, await payment.failed through the events route and through a verified webhook,
advance the account's clock, snapshot and restore it, and accounts in parallel that see only their
own events.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

import pytest

from support import pay
from wallet_sandbox import Sandbox, SandboxAccount, SandboxApiError, WebhookReceiver


def test_a_failed_payment_is_seen_through_the_events_route_and_a_verified_webhook(
    sandbox_account: SandboxAccount, webhook_receiver: WebhookReceiver
) -> None:
    endpoint = sandbox_account.post("/webhooks", {"url": webhook_receiver.url, "events": ["payment.failed"]})
    webhook_receiver.secret = endpoint["secret"]

    payment = pay(sandbox_account)
    sandbox_account.fail_payment(payment["id"], failure_code="insufficient_network_fee")

    event = sandbox_account.wait_for_event("payment.failed", object_id=payment["id"])
    assert event["data"]["object"]["id"] == payment["id"]
    assert event["data"]["object"]["status"] == "failed"
    assert event["data"]["object"]["failure_code"] == "insufficient_network_fee"
    assert webhook_receiver.wait_for("payment.failed", object_id=payment["id"]) == event


def test_the_accounts_clock_advances_and_a_restore_forgets_what_came_after_the_snapshot(sandbox_account: SandboxAccount) -> None:
    before = sandbox_account.clock()
    after = sandbox_account.advance_clock(timedelta(minutes=1))
    assert (instant(after["now"]) - instant(before["now"])).total_seconds() == 60
    assert (after["account_id"], after["offset_ms"]) == (sandbox_account.account_id, before["offset_ms"] + 60_000)

    snapshot = sandbox_account.snapshot()
    payment = pay(sandbox_account)
    sandbox_account.restore(snapshot)
    with pytest.raises(SandboxApiError) as gone:
        sandbox_account.get(f"/payments/{payment['id']}")
    assert gone.value.status == 404


def test_accounts_in_parallel_each_see_only_their_own_events(wallet_sandbox: Sandbox) -> None:
    def run(amount: str) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        account = wallet_sandbox.create_account()
        payment = pay(account, amount)
        account.fail_payment(payment["id"])
        event = account.wait_for_event("payment.failed")
        return payment, event, account.events()["data"]

    with ThreadPoolExecutor(max_workers=4) as pool:
        runs = list(pool.map(run, ["1.00", "2.00", "3.00", "4.00"]))
    for payment, event, events in runs:
        assert event["data"]["object"]["id"] == payment["id"]
        assert [(e["type"], e["data"]["object"]["id"]) for e in events] == [
            ("payment.created", payment["id"]),
            ("payment.failed", payment["id"]),
        ]


def instant(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))
