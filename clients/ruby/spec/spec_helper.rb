# frozen_string_literal: true

require "wallet_sandbox/rspec"

RSpec.configure do |config|
  # A clock and payments that stand still until a test moves them.
  config.wallet_sandbox_options = { args: %w[--clock manual --settle manual] }
end
