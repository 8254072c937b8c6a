# frozen_string_literal: true

require "erb"
require_relative "event_wait"

module WalletSandbox
  # The control API (`/_sandbox`), one method a request; each answers the reply's `data` as parsed
  # JSON (string keys) and raises APIError on an error. Needs #http and #control_token.
  module Control
    include EventWait

    def health = control(:get, "/health")
    def clock = control(:get, "/clock")

    # Runs everything that falls due (settlements, webhook retries, price ticks) in time order.
    def advance_clock(ms) = control(:post, "/clock/advance", { ms: ms })

    # A new key on a freshly seeded account, isolated from every other: `{"key", "account_id", …}`.
    def create_key(**input) = control(:post, "/keys", input)

    # A pending payment passes through processing to completed.
    def complete_payment(id) = control(:post, "/payments/#{escape(id)}/complete", {})

    # Without a code, `network_congestion`.
    def fail_payment(id, failure_code: nil, failure_message: nil)
      control(:post, "/payments/#{escape(id)}/fail", { failure_code: failure_code, failure_message: failure_message }.compact)
    end

    def process_payment(id) = control(:post, "/payments/#{escape(id)}/process", {})

    # Credits a wallet from outside: `amount` is a decimal string such as "25.00".
    def deposit(wallet_id, amount, from_address: nil)
      control(:post, "/wallets/#{escape(wallet_id)}/deposit", { amount: amount, from_address: from_address }.compact)
    end

    # Back to the fixtures: everything, or only the account of `api_key`.
    def reset(api_key: nil) = control(:post, "/reset", { api_key: api_key }.compact)

    # The whole state; #restore it later to go back to exactly that (the clock stays where it is).
    def snapshot = control(:get, "/snapshot")
    def restore(snapshot) = control(:post, "/restore", snapshot)

    # Webhook deliveries, newest first (filters as the control API takes them: `event_id:`, `status:`…).
    def deliveries(**filter) = control(:get, "/webhooks/deliveries", query: filter)

    # Events as webhooks carry them, oldest first: the whole page, `{"data", "has_more", "dropped", "resets"}`.
    # Filters: `api_key:` or `account_id:`, `type:` (a String or an Array), `object_id:`, `after:`,
    # `limit:`, `wait:` (ms).
    def events(type: nil, **filter)
      query = { **filter, type: type && Array(type).join(",") }
      wait = filter[:wait].to_i
      http.request(:get, "/_sandbox/events", query: query, bearer: control_token, read_timeout: (wait / 1000) + 15)
    end

    # Any other control call: `control(:post, "/outcomes", {...})`, the path relative to /_sandbox.
    def control(method, path, body = nil, query: nil)
      http.request(method, "/_sandbox#{path}", body: body, query: query, bearer: control_token)&.fetch("data", nil)
    end

    private

    def escape(id) = ERB::Util.url_encode(id.to_s)
  end
end
