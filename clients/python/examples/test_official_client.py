"""The sandbox behind your own API client: give the client the sandbox's URL as its base URL."""

from __future__ import annotations

import json
import urllib.request


class WalletClient:
    """Stands for the API's official Python client, or your own: anything that takes a base URL and a key."""

    def __init__(self, base_url: str, api_key: str) -> None:
        self.base_url = base_url
        self.api_key = api_key

    def send(self, method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(
            self.base_url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self.api_key}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request) as response:
            return json.load(response)["data"]


def test_a_payment_the_network_drops_is_reported_failed(sandbox_account):
    client = WalletClient(base_url=sandbox_account.url, api_key=sandbox_account.api_key)
    wallet = sandbox_account.wallet("USDC", "polygon")

    payment = client.send("POST", "/payments", {
        "source_wallet": wallet["id"],
        "amount": "10.00",
        "currency": "USDC",
        "recipient": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    })
    assert payment["status"] == "pending"

    sandbox_account.fail_payment(payment["id"], failure_code="network_congestion")

    assert client.send("GET", f"/payments/{payment['id']}")["status"] == "failed"
