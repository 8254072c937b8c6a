# frozen_string_literal: true

require "minitest/autorun"
require "wallet_sandbox/minitest"

# A clock and payments that stand still until a test moves them.
WalletSandbox::Minitest.options = { args: %w[--clock manual --settle manual] }
