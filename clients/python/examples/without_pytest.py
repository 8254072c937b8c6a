"""A sandbox without pytest: start_sandbox() finds the CLI as the plugin does, and stops it after the block."""

from wallet_sandbox import start_sandbox

with start_sandbox(clock="manual") as sandbox:
    account = sandbox.create_account()
    quote = account.post("/quotes", {"source_currency": "USDC", "destination_currency": "ETH", "source_amount": "100.00"})
    account.advance_clock(seconds=31)
    print(account.get(f"/quotes/{quote['id']}")["status"])
