# frozen_string_literal: true

require "rspec/core"
require "wallet_sandbox"

module WalletSandbox
  # `require "wallet_sandbox/rspec"`: one sandbox for the whole run, started before the suite (with
  # `config.wallet_sandbox_options`, the keywords of WalletSandbox.start) and stopped after it; each
  # example gets `wallet_sandbox` and a fresh account of its own, `sandbox_account`.
  module RSpec
    # Included in every example group.
    module Helpers
      def wallet_sandbox = ::RSpec.configuration.wallet_sandbox

      # A fresh account for this example (a new key on a freshly seeded account), made on first use.
      def sandbox_account
        @sandbox_account ||= wallet_sandbox.new_account
      end
    end
  end
end

RSpec.configure do |config|
  config.add_setting :wallet_sandbox_options, default: {}
  config.add_setting :wallet_sandbox
  config.include WalletSandbox::RSpec::Helpers

  config.before(:suite) do
    config.wallet_sandbox = WalletSandbox.start(**config.wallet_sandbox_options)
  end

  config.after(:suite) do
    config.wallet_sandbox&.stop
  end
end
