# frozen_string_literal: true

require_relative "duration"
require_relative "errors"
require_relative "request_expectation_message"

module WalletSandbox
  # What the code under test sent (CONTRACT.md section 23): `POST /_sandbox/requests/expect` as an
  # assertion. Needs #control, #http, #control_token and #api_key (whose requests, unless told).
  module RequestExpectations
    # Asserts that the account of `api_key` (this sandbox's key unless an `api_key` or `account_id`
    # is given) sent at least `count` requests (exactly `count` with `exactly: true`) that match the
    # pattern: `method:`, `path:` (exact, `/v1/payments/{id}`, or a prefix ending in `*`), `query:`
    # (numbers as their text), `headers:` (`{ "idempotency-key" => "invoice-41" }`; true for present,
    # false for absent), `body:` (the JSON it must contain), `status:` (201 or "4xx"). `within:` waits
    # that long, in real time, for them to come (`within: { seconds: 2 }`, `{ ms: 500 }`, or
    # `2.seconds` with ActiveSupport; up to 30 s). Answers the matching requests, newest first; raises
    # RequestExpectationError showing the closest requests otherwise, and APIError naming the field
    # of a bad expectation (an unknown keyword included: the sandbox checks them all).
    def expect_request(api_key: nil, account_id: nil, count: nil, exactly: nil, within: nil, **pattern)
      assert_requests(whose(api_key, account_id), { **pattern, count: count, exactly: exactly }, within)
    end

    # Asserts that no request matching the pattern came from the account, over `within:` of real time
    # (the whole window is waited; one that comes fails it at once).
    def expect_no_request(api_key: nil, account_id: nil, within: nil, **pattern)
      counts = pattern.keys & %i[count exactly]
      raise ArgumentError, "expect_no_request asserts that none came; it takes no #{counts.join(' or ')}" unless counts.empty?

      assert_requests(whose(api_key, account_id), { **pattern, count: 0, exactly: true }, within)
      nil
    end

    # The API's answer as data, `{"satisfied", "matched", "near_misses"}`, for an expectation as
    # POST /_sandbox/requests/expect takes it (`within_ms:` included).
    def check_requests(expectation)
      wait_s = expectation.fetch(:within_ms, 0).to_i / 1000
      http.request(:post, "/_sandbox/requests/expect", body: expectation, bearer: control_token, read_timeout: wait_s + 15)
          .fetch("data")
    end

    # How long `within:` says, in whole ms: `{ seconds: 2 }`, `{ ms: 500 }` (units added up), an
    # ActiveSupport::Duration, or nil for no wait.
    def self.within_ms(within)
      return 0 if within.nil?
      return Duration.to_ms(within) if Duration.active_support?(within)
      return Duration.to_ms(**within) if within.is_a?(Hash) && !within.empty?

      raise ArgumentError, "within: takes how long with its unit: within: { seconds: 2 }, within: { ms: 500 }, " \
                           "or an ActiveSupport::Duration such as 2.seconds; not #{within.inspect}"
    end

    private

    # A query string holds text: `query: { limit: 2 }` means "2", as Account#get sends it.
    def query_text(query)
      return query unless query.is_a?(Hash)

      query.transform_values { |value| value.is_a?(Numeric) || value.is_a?(Symbol) ? value.to_s : value }
    end

    def whose(api_key, account_id) = { api_key: api_key || (account_id ? nil : self.api_key), account_id: account_id }

    def assert_requests(scope, expectation, within)
      sent = { **scope, **expectation, within_ms: RequestExpectations.within_ms(within) }.compact
      sent[:query] = query_text(sent[:query]) if sent.key?(:query)
      sent.delete(:within_ms) if sent[:within_ms].zero?
      result = check_requests(sent)
      return result.fetch("matched") if result.fetch("satisfied")

      raise RequestExpectationError.new(RequestExpectationMessage.describe(sent, result), expectation: sent, result: result)
    end
  end
end
