# frozen_string_literal: true

require "minitest"
require "wallet_sandbox"

module WalletSandbox
  # `require "wallet_sandbox/minitest"` and `include WalletSandbox::Minitest` in a test class: one
  # sandbox for the whole run, started by the first test that uses it (with
  # `WalletSandbox::Minitest.options`, the keywords of WalletSandbox.start) and stopped once the run
  # is over; each test gets `wallet_sandbox` and a fresh account of its own, `sandbox_account`.
  module Minitest
    @options = {}
    @lock = Mutex.new
    @sandbox = nil
    @failure = nil

    class << self
      attr_accessor :options

      # The run's sandbox, started on first use (threads of a parallel run share it). A start that
      # failed is not tried again: every test that needs it fails with the same message at once.
      def sandbox
        @lock.synchronize do
          raise @failure if @failure

          @sandbox ||= WalletSandbox.start(**options)
        rescue WalletSandbox::Error => e
          @failure = e
          raise
        end
      end

      def stop
        @lock.synchronize do
          @sandbox&.stop
          @sandbox = nil
    @failure = nil
        end
      end
    end

    def wallet_sandbox = WalletSandbox::Minitest.sandbox

    # A fresh account for this test (a new key on a freshly seeded account), made on first use.
    def sandbox_account
      @sandbox_account ||= wallet_sandbox.new_account
    end
  end
end

Minitest.after_run { WalletSandbox::Minitest.stop }
