# frozen_string_literal: true

require_relative "duration"

module WalletSandbox
  # An account of its own on a sandbox: a key on a freshly seeded account that no other test uses,
  # with its wallets, events and webhooks, and its own clock and state. Requests go to /v1 with that
  # key; its clock, snapshot, restore and reset touch this account alone, so tests that share a
  # sandbox (threads, or processes under `wallet-sandbox exec`) never move each other's time or state.
  class Account
    attr_reader :sandbox, :api_key, :account_id

    def initialize(sandbox, api_key:, account_id:)
      @sandbox = sandbox
      @api_key = api_key
      @account_id = account_id
    end

    # `get("/wallets", currency: "USDC")`: the reply's `data`; raises APIError on an error.
    def get(path, **query) = request(:get, path, query: query)
    def post(path, body = {}) = request(:post, path, body: body)
    def delete(path) = request(:delete, path)

    def request(method, path, body: nil, query: nil)
      @sandbox.http.request(method, "/v1#{path}", body: body, query: query, bearer: @api_key)&.fetch("data", nil)
    end

    # The account's first seeded wallet of that currency and network.
    def wallet(currency: "USDC", network: "polygon")
      get("/wallets", currency: currency, network: network).first or
        raise Error, "account #{@account_id} has no #{currency} wallet on #{network}"
    end

    def events(**filter) = @sandbox.events(api_key: @api_key, **filter)

    def wait_for_event(type = nil, **options) = @sandbox.wait_for_event(type, api_key: @api_key, **options)

    # Asserts what the code under test sent with this account's key: Control#expect_request's
    # keywords (`method:`, `path:`, `query:`, `headers:`, `body:`, `status:`, `count:`, `exactly:`,
    # `within:`), all but whose. Answers the matching requests, newest first; raises
    # RequestExpectationError, whose message shows the closest requests, otherwise.
    def expect_request(**expectation) = @sandbox.expect_request(**own(expectation, :expect_request))

    # Asserts that no such request came with this account's key, over `within:` of real time.
    def expect_no_request(**expectation) = @sandbox.expect_no_request(**own(expectation, :expect_no_request))

    # This account's clock, the sandbox clock plus its own offset: `{"mode", "now", "offset_ms", "account_id"}`.
    def clock = @sandbox.clock(api_key: @api_key)

    # Moves this account's clock alone and runs what falls due of it in time order: its payments
    # settle, its deliveries retry, its quotes and orders expire or fill at the price of its time.
    # `advance_clock(seconds: 30)`, `advance_clock(ms: 1500)`, `advance_clock(hours: 1)`, or
    # `advance_clock(1.hour)` with ActiveSupport. Answers its clock.
    def advance_clock(duration = nil, **units)
      @sandbox.advance_clock(Duration.to_ms(duration, **units), api_key: @api_key)
    end

    # This account's whole state (its keys, wallets, payments, events, rules, clock…), with
    # `account_id` and `taken_at` set; #restore takes it back.
    def snapshot = @sandbox.snapshot(api_key: @api_key)

    # Puts this account back as `snapshot` (one of this account's own) found it, its clock back at
    # its `taken_at`; every other account and the sandbox clock stay as they are.
    def restore(snapshot)
      theirs = snapshot.is_a?(Hash) ? snapshot["account_id"] : nil
      unless theirs == @account_id
        whose = theirs ? "account #{theirs}'s" : "not an account's (a whole sandbox's, from wallet_sandbox.snapshot?)"
        raise ArgumentError, "restore of account #{@account_id} takes a snapshot of that account (its #snapshot); this one is #{whose}"
      end
      @sandbox.restore(snapshot)
    end

    # Back to the fixtures, on the sandbox clock, without rules of its own; its keys stay valid.
    def reset = @sandbox.reset(api_key: @api_key)

    def inspect = "#<#{self.class.name} #{@account_id} #{@api_key} on #{@sandbox.base_url}>"

    private

    # An expectation about this account's requests; another account's are the sandbox's to check.
    def own(expectation, name)
      whose = expectation.keys & %i[api_key account_id]
      unless whose.empty?
        raise ArgumentError, "#{name} on an account checks that account's own requests and takes no #{whose.join(' or ')}; " \
                             "another account's are wallet_sandbox.#{name}(api_key: …)"
      end
      { **expectation, api_key: @api_key }
    end
  end
end
