# frozen_string_literal: true

require "wallet_sandbox"

# A free port, and a clock that stands still until told (WALLET_SANDBOX_BASE_URL, when set, is
# attached to instead).
sandbox = WalletSandbox.start(args: %w[--clock manual])
begin
  puts sandbox.url                        # => http://127.0.0.1:…/v1
  account = sandbox.new_account           # a key on a freshly seeded account, no one else's
  wallet = account.wallet(currency: "USDC", network: "polygon")
  puts "#{wallet['id']} holds #{wallet['balance']} USDC" # => wal_nlkXl8rGGuKmBa8RIXda2Mc4 holds 250.00 USDC
  puts account.advance_clock(minutes: 1)["now"] # => 2026-01-01T00:01:00.000Z
ensure
  sandbox.stop
end
