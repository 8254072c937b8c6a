# frozen_string_literal: true

require "erb"
require_relative "duration"
require_relative "event_wait"
require_relative "request_expectations"
require_relative "shared_sandbox_warning"

module WalletSandbox
  # The control API (`/_sandbox`), one method a request; each answers the reply's `data` as parsed
  # JSON (string keys) and raises APIError on an error. Needs #http, #control_token and #attached?
  # (a sandbox-wide advance, snapshot, restore or reset on an attached sandbox warns once: see
  # SharedSandboxWarning).
  module Control
    include EventWait
    include RequestExpectations

    def health = control(:get, "/health")

    # The sandbox clock, or with `api_key:` (or `account_id:`) that account's:
    # `{"mode", "now", "offset_ms", "account_id"}`.
    def clock(api_key: nil, account_id: nil) = control(:get, "/clock", query: { api_key: api_key, account_id: account_id })

    # Moves a clock and runs everything that falls due on it (settlements, webhook retries, expiries,
    # price ticks) in time order: with `api_key:` (or `account_id:`) that account's clock alone, else
    # the sandbox clock and every account with it. How long as Duration takes it (`seconds: 30`,
    # `ms: 1500`, `30.seconds`); a bare Integer, as this method took before, is milliseconds.
    def advance_clock(duration = nil, api_key: nil, account_id: nil, **units)
      ms = Duration.bare?(duration) && units.empty? ? duration : Duration.to_ms(duration, **units)
      whose = scope(api_key, account_id)
      sandbox_wide("clock advance") if whose.empty?
      control(:post, "/clock/advance", { ms: ms, **whose })
    end

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

    # Back to the fixtures: everything, or only the account of `api_key` (Account#reset).
    def reset(api_key: nil)
      sandbox_wide("reset") if api_key.nil?
      control(:post, "/reset", { api_key: api_key }.compact)
    end

    # The whole state, or with `api_key:` (or `account_id:`) that account's alone (Account#snapshot);
    # #restore it later to go back to exactly that. A whole snapshot leaves the clock where it is; an
    # account's brings its clock back to the snapshot's `taken_at`.
    def snapshot(api_key: nil, account_id: nil)
      whose = scope(api_key, account_id)
      sandbox_wide("snapshot") if whose.empty?
      control(:get, "/snapshot", query: whose)
    end

    # Replaces everything with a whole snapshot, or one account with an account's snapshot (every
    # other account untouched): `{"restored", "accounts", "keys", "account_id"}`.
    def restore(snapshot)
      sandbox_wide("restore") if snapshot.is_a?(Hash) && snapshot["account_id"].nil?
      control(:post, "/restore", snapshot)
    end

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

    def scope(api_key, account_id) = { api_key: api_key, account_id: account_id }.compact

    def sandbox_wide(operation)
      SharedSandboxWarning.say(operation) if attached?
    end
  end
end
