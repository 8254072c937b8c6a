# frozen_string_literal: true

require "wallet_sandbox/rspec"

RSpec.configure do |config|
  # Payments that settle once their account's clock moves on. Under `wallet-sandbox exec` every
  # process attaches to the sandbox exec started (with the same flags) and these go unused.
  config.wallet_sandbox_options = { args: %w[--clock manual --settle auto] }
end
