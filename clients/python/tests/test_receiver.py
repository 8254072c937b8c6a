"""webhook_receiver: Standard Webhooks verification, what it records, and what wait_for says."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest

from wallet_sandbox import WebhookReceiver
from wallet_sandbox.webhooks import sign, verification_error

# The reference vector of the Standard Webhooks specification.
SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
SPEC_TIMESTAMP = 1614265330
SPEC_BODY = b'{"test": 2432232314}'
SPEC_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
SECRET = "whsec_c2FuZGJveC13ZWJob29rLXNlY3JldC1rZXk="


def spec_headers(signature: str = SPEC_SIGNATURE) -> dict[str, str]:
    return {"webhook-id": SPEC_ID, "webhook-timestamp": str(SPEC_TIMESTAMP), "webhook-signature": signature}


def test_signs_and_verifies_the_specifications_reference_vector() -> None:
    assert sign(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY) == SPEC_SIGNATURE
    assert verification_error(SPEC_SECRET, spec_headers(), SPEC_BODY, now=SPEC_TIMESTAMP) is None
    # Any one of several space-separated signatures (a secret being rotated) will do.
    assert verification_error(SPEC_SECRET, spec_headers(f"v1,bm90IHRoaXMgb25l {SPEC_SIGNATURE}"), SPEC_BODY, now=SPEC_TIMESTAMP) is None


@pytest.mark.parametrize(
    ("headers", "body", "now", "reason"),
    [
        (spec_headers(), SPEC_BODY + b" ", SPEC_TIMESTAMP, "no v1 signature matches the body under this secret"),
        (spec_headers("v2," + SPEC_SIGNATURE[3:]), SPEC_BODY, SPEC_TIMESTAMP, "no v1 signature matches the body under this secret"),
        (spec_headers(), SPEC_BODY, SPEC_TIMESTAMP + 301, f"webhook-timestamp {SPEC_TIMESTAMP} is more than 300 s from now ({SPEC_TIMESTAMP + 301})"),
        ({**spec_headers(), "webhook-timestamp": "16142653.30"}, SPEC_BODY, SPEC_TIMESTAMP, "webhook-timestamp is not whole seconds: '16142653.30'"),
        ({"webhook-id": SPEC_ID, "webhook-signature": SPEC_SIGNATURE}, SPEC_BODY, SPEC_TIMESTAMP, "missing webhook-id, webhook-timestamp or webhook-signature"),
    ],
    ids=["changed body", "another version", "too old", "not seconds", "header missing"],
)
def test_refuses_a_delivery_and_says_why(headers: dict[str, str], body: bytes, now: int, reason: str) -> None:
    assert verification_error(SPEC_SECRET, headers, body, now) == reason


def deliver(receiver: WebhookReceiver, event: dict, secret: str = SECRET) -> tuple[int, str]:
    body = json.dumps(event).encode()
    timestamp = int(time.time())
    headers = {"content-type": "application/json", "webhook-id": event["id"], "webhook-timestamp": str(timestamp), "webhook-signature": sign(secret, event["id"], timestamp, body)}
    request = urllib.request.Request(receiver.url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def event(number: int, type: str = "payment.failed", object_id: str = "pay_1") -> dict:
    return {"id": f"evt_{number}", "object": "event", "type": type, "data": {"object": {"id": object_id}}}


def test_answers_200_to_a_verified_delivery_and_400_with_the_reason_to_another_and_records_both(webhook_receiver: WebhookReceiver) -> None:
    webhook_receiver.secret = SECRET
    assert deliver(webhook_receiver, event(1)) == (200, "ok")
    assert deliver(webhook_receiver, event(2), secret=SPEC_SECRET) == (400, "no v1 signature matches the body under this secret")
    assert [(d.event["id"] if d.event else None, d.verified, d.error) for d in webhook_receiver.received] == [
        ("evt_1", True, None),
        ("evt_2", False, "no v1 signature matches the body under this secret"),
    ]
    assert webhook_receiver.received[0].headers["webhook-id"] == "evt_1"


def test_wait_for_returns_the_first_verified_match_already_received_or_to_come(webhook_receiver: WebhookReceiver) -> None:
    webhook_receiver.secret = SECRET
    deliver(webhook_receiver, event(1, "payment.created"))
    deliver(webhook_receiver, event(2, "payment.failed"), secret=SPEC_SECRET)
    deliver(webhook_receiver, event(3, "payment.failed"))
    assert webhook_receiver.wait_for("payment.failed")["id"] == "evt_3"
    assert webhook_receiver.wait_for("payment.*")["id"] == "evt_1"
    assert webhook_receiver.wait_for(["payout.failed", "payment.failed"], object_id="pay_1")["id"] == "evt_3"


def test_wait_for_fails_with_what_arrived_instead(webhook_receiver: WebhookReceiver) -> None:
    webhook_receiver.secret = SECRET
    deliver(webhook_receiver, event(1, "payment.created"))
    deliver(webhook_receiver, event(2, "payment.failed"), secret=SPEC_SECRET)
    with pytest.raises(AssertionError) as waited:
        webhook_receiver.wait_for("payment.failed", object_id="pay_1", timeout=0.1)
    assert str(waited.value) == (
        f"Waited 0.1 s for a payment.failed delivery of pay_1 at {webhook_receiver.url}; 2 arrived, the last: "
        "payment.created pay_1 (evt_1), payment.failed pay_1 (evt_2) (refused: no v1 signature matches the body under this secret)."
    )


def test_without_a_secret_every_delivery_is_refused_saying_how_to_give_one() -> None:
    with WebhookReceiver() as receiver:
        assert deliver(receiver, event(1)) == (400, "the receiver has no secret to verify with (WebhookReceiver(secret) or receiver.secret = …)")
        with pytest.raises(AssertionError, match=r"^Waited 0\.1 s for a delivery at http://127\.0\.0\.1:\d+/webhooks; 1 arrived"):
            receiver.wait_for(timeout=0.1)
