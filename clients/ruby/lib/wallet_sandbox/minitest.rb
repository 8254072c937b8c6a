# frozen_string_literal: true

require "minitest"
require "wallet_sandbox"
require "wallet_sandbox/run_sandbox"

module WalletSandbox
  # `require "wallet_sandbox/minitest"` and `include WalletSandbox::Minitest` in a test class: one
  # sandbox for the whole run, started by the first test that uses it (with
  # `WalletSandbox::Minitest.options`, the keywords of WalletSandbox.start) and stopped once the run
  # is over; each test gets `wallet_sandbox`, a fresh account of its own, `sandbox_account`, and
  # the assertions assert_received_event, refute_received_event, assert_request_sent and
  # refute_request_sent. Tests of a `parallelize_me!` class share the sandbox, each on its own
  # account, with its own clock and state.
  module Minitest
    @options = {}
    @run_sandbox = RunSandbox.new { options }

    class << self
      attr_accessor :options

      # The run's sandbox, started on first use (threads of a parallel run share it).
      def sandbox = @run_sandbox.get

      def stop = @run_sandbox.stop
    end

    def wallet_sandbox = WalletSandbox::Minitest.sandbox

    # A fresh account for this test (a new key on a freshly seeded account), made on first use.
    def sandbox_account
      @sandbox_account ||= wallet_sandbox.new_account
    end

    # Passes once `account` (an Account, or a Sandbox for its own key) has an event of `type` (a
    # type, `payment.*`, or an Array of them) and of `object_id` if given, already or within
    # `timeout` seconds; fails with what it had instead. Answers the event.
    def assert_received_event(account, type = nil, object_id: nil, timeout: 10)
      event = account.wait_for_event(type, object_id: object_id, timeout: timeout)
      assert(event)
      event
    rescue EventTimeout => e
      flunk(e.message)
    end

    # Passes while `account` has no such event yet (it does not wait for one not to come).
    def refute_received_event(account, type = nil, object_id: nil)
      event = account.wait_for_event(type, object_id: object_id, timeout: 0)
      flunk("Expected no #{type || 'event'}#{object_id ? " of #{object_id}" : ''} on #{account.inspect}, " \
            "but it has #{event['type']} #{event['id']}.")
    rescue EventTimeout
      pass
    end

    # Passes when `account` (an Account, or a Sandbox for its own key) sent the requests the keywords
    # of #expect_request describe (`method:`, `path:`, `query:`, `headers:`, `body:`, `status:`,
    # `count:`, `exactly:`, `within:`); fails with the closest requests it sent instead. Answers the
    # matching requests, newest first. A bad expectation is an error (APIError naming the field), not
    # a failure.
    def assert_request_sent(account, **expectation)
      matched = account.expect_request(**expectation)
      pass
      matched
    rescue RequestExpectationError => e
      flunk(e.message)
    end

    # Passes when no such request came from `account`, over `within:` of real time when given.
    def refute_request_sent(account, **expectation)
      account.expect_no_request(**expectation)
      pass
    rescue RequestExpectationError => e
      flunk(e.message)
    end
  end
end

Minitest.after_run { WalletSandbox::Minitest.stop }
