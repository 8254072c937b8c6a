# frozen_string_literal: true

require "json"
require "rspec/expectations"
require "wallet_sandbox/duration"
require "wallet_sandbox/errors"

module WalletSandbox
  module RSpec
    # Included in every example group by `require "wallet_sandbox/rspec"`.
    module Matchers
      # `expect(sandbox_account).to have_received_request(method: "POST", path: "/v1/payments",
      # headers: { "idempotency-key" => "invoice-41" }, body: { amount: "10.00" })`, with
      # `.exactly(2).times`, `.at_least(2).times`, `.once`, `.twice`, and `.within(seconds: 2)` to wait
      # for requests still to come. The keywords are #expect_request's; it passes when the account (an
      # Account, or a Sandbox for its own key) sent them, and fails with the closest requests it sent
      # instead. `not_to` asserts that none came (over the `within` window, when given).
      def have_received_request(**expectation) = HaveReceivedRequest.new(expectation)

      # The matcher behind #have_received_request.
      class HaveReceivedRequest
        include ::RSpec::Matchers::Composable

        def initialize(expectation)
          @expectation = expectation
        end

        def exactly(count) = counted(count, exactly: true)
        def at_least(count) = counted(count, exactly: false)
        def once = exactly(1)
        def twice = exactly(2)
        # `.exactly(3).times` reads as a sentence; the count is already set.
        def times = self

        # How long to wait for the requests, in real time: `within(seconds: 2)`, `within(ms: 500)`, or
        # `within(2.seconds)` with ActiveSupport.
        def within(duration = nil, **units)
          @expectation = { **@expectation, within: { ms: Duration.to_ms(duration, caller_name: "within", **units) } }
          self
        end

        def matches?(account) = met? { account.expect_request(**@expectation) }

        def does_not_match?(account)
          counts = @expectation.keys & %i[count exactly]
          raise ArgumentError, "not_to have_received_request asserts that none came; it takes no #{counts.join(' or ')}" unless counts.empty?

          met? { account.expect_no_request(**@expectation) }
        end

        # The near-miss report: what was expected, and the closest requests with what differs.
        def failure_message = @failure
        def failure_message_when_negated = @failure

        def description
          count = @expectation.fetch(:count, 1)
          pattern = @expectation.except(:count, :exactly, :within)
          "have received #{@expectation[:exactly] ? 'exactly' : 'at least'} #{count} #{count == 1 ? 'request' : 'requests'}" \
            "#{pattern.empty? ? '' : " matching #{JSON.generate(pattern)}"}"
        end

        private

        # Whether the expectation the block checks was met; the report of why not is kept for RSpec.
        def met?
          yield
          true
        rescue RequestExpectationError => e
          @failure = e.message
          false
        end

        def counted(count, exactly:)
          @expectation = { **@expectation, count: count, exactly: exactly }
          self
        end
      end
    end
  end
end
