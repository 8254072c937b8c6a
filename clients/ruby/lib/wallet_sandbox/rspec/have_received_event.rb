# frozen_string_literal: true

require "rspec/expectations"
require "wallet_sandbox/duration"
require "wallet_sandbox/errors"

module WalletSandbox
  module RSpec
    # Included in every example group by `require "wallet_sandbox/rspec"`.
    module Matchers
      # `expect(sandbox_account).to have_received_event("payment.failed")`, `.for(payment)` (or its
      # id) for one object's, `.within(seconds: 5)` to wait another time than 10 s. Passes as soon as
      # the account (an Account, or a Sandbox for its own key) has a matching event, already logged or
      # still to come; fails with what it had instead. `not_to` passes while it has none yet, and does
      # not wait: an event that might still come cannot be ruled out by waiting.
      def have_received_event(type = nil) = HaveReceivedEvent.new(type)

      # The matcher behind #have_received_event.
      class HaveReceivedEvent
        include ::RSpec::Matchers::Composable

        DEFAULT_TIMEOUT = 10

        def initialize(type)
          @type = type
          @object_id = nil
          @timeout = DEFAULT_TIMEOUT
        end

        # An event about this object: a payment, order… as the API answered it, or its id.
        def for(object)
          @object_id = object.is_a?(Hash) ? object.fetch("id") : object
          self
        end

        # How long to wait: `within(seconds: 5)`, `within(ms: 500)`, or `within(5.seconds)` with ActiveSupport.
        def within(duration = nil, **units)
          ms = Duration.to_ms(duration, caller_name: "within", **units)
          @timeout = (ms % 1000).zero? ? ms / 1000 : ms / 1000.0
          self
        end

        def matches?(account)
          @account = account
          @event = account.wait_for_event(@type, object_id: @object_id, timeout: @timeout)
          true
        rescue EventTimeout => e
          @why = e.message
          false
        end

        def does_not_match?(account)
          @account = account
          @event = account.wait_for_event(@type, object_id: @object_id, timeout: 0)
          false
        rescue EventTimeout
          true
        end

        def failure_message = "expected #{@account.inspect} to #{description}\n#{@why}"

        def failure_message_when_negated
          "expected #{@account.inspect} not to #{description}, but it has #{@event['type']} #{@event['id']}"
        end

        def description
          what = @type ? "a #{Array(@type).join(' or ')} event" : "an event"
          "have received #{what}#{@object_id ? " for #{@object_id}" : ''}"
        end
      end
    end
  end
end
