"""Awaiting events through the events route: already logged or still to come, and what a timeout says."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from support import pay
from wallet_sandbox import EventWaitTimeout, Sandbox, SandboxAccount, SandboxApiError


def test_waits_for_an_event_still_to_come(sandbox_account: SandboxAccount) -> None:
    payment = pay(sandbox_account)
    with ThreadPoolExecutor(max_workers=1) as pool:
        waiting = pool.submit(sandbox_account.wait_for_event, "payment.failed", payment["id"], 10)
        sandbox_account.fail_payment(payment["id"])
        assert waiting.result()["data"]["object"]["id"] == payment["id"]


def test_a_timeout_is_an_assertion_error_that_lists_what_the_account_had_instead(sandbox_account: SandboxAccount) -> None:
    payment = pay(sandbox_account)
    with pytest.raises(AssertionError) as waited:
        sandbox_account.wait_for_event(["payment.succeeded", "payment.failed"], object_id=payment["id"], timeout=0.2)
    created = waited.value.seen[0]  # type: ignore[attr-defined]
    assert isinstance(waited.value, EventWaitTimeout)
    assert str(waited.value) == (
        f"No payment.succeeded or payment.failed event of {payment['id']} on the account of {sandbox_account.api_key} "
        f"within 0.2 s; its last events were: payment.created {payment['id']} ({created['id']})."
    )


def test_a_timeout_on_an_account_without_events_says_so(sandbox_account: SandboxAccount) -> None:
    with pytest.raises(AssertionError, match=r"^No any event on account acct_\w+ within 0\.1 s; it has had no events at all\.$"):
        sandbox_account.sandbox.wait_for_event(account_id=sandbox_account.account_id, timeout=0.1)


def test_events_of_a_key_no_account_uses_are_the_sandboxs_404(wallet_sandbox: Sandbox) -> None:
    with pytest.raises(SandboxApiError) as refused:
        wallet_sandbox.events(api_key="sk_test_nobody")
    assert (refused.value.status, refused.value.code) == (404, "resource_missing")
    assert "No account uses the key 'sk_test_nobody'" in str(refused.value)
    with pytest.raises(TypeError, match="whose events"):
        wallet_sandbox.wait_for_event(type="payment.failed")
