# frozen_string_literal: true

require "rspec/core"
require "wallet_sandbox"
require "wallet_sandbox/run_sandbox"
require "wallet_sandbox/rspec/have_received_event"
require "wallet_sandbox/rspec/have_received_request"

module WalletSandbox
  # `require "wallet_sandbox/rspec"`: one sandbox for the whole run, started by the first example
  # that uses it (with `config.wallet_sandbox_options`, the keywords of WalletSandbox.start), so that
  # a run of unit specs alone starts none, and stopped after the suite; each example gets
  # `wallet_sandbox`, a fresh account of its own, `sandbox_account`, and the matchers
  # `have_received_event` and `have_received_request`.
  module RSpec
    @run_sandbox = RunSandbox.new { ::RSpec.configuration.wallet_sandbox_options }

    class << self
      # The run's sandbox, started on first use (also from a `before(:all)`, or outside examples).
      def sandbox = @run_sandbox.get

      def stop = @run_sandbox.stop
    end

    # Included in every example group.
    module Helpers
      def wallet_sandbox = WalletSandbox::RSpec.sandbox

      # A fresh account for this example (a new key on a freshly seeded account), made on first use.
      def sandbox_account
        @sandbox_account ||= wallet_sandbox.new_account
      end
    end
  end
end

RSpec.configure do |config|
  config.add_setting :wallet_sandbox_options, default: {}
  config.include WalletSandbox::RSpec::Helpers
  config.include WalletSandbox::RSpec::Matchers

  config.after(:suite) { WalletSandbox::RSpec.stop }
end
