# frozen_string_literal: true

require_relative "errors"

module WalletSandbox
  # Awaiting an event through the events route: long polls (`wait`, at most 30 s a request) for the
  # first event that matches, already logged or still to come. Needs #events.
  module EventWait
    LONGEST_POLL_MS = 30_000
    # How many of the account's last events a timeout's message lists.
    SHOWN = 10

    # The first event of `type` (a type, `payment.*`, or an Array of them; any type when nil) on the
    # account of `api_key` (this sandbox's key unless an `api_key` or `account_id` is given), of
    # `object_id` if given, within `timeout` seconds of real time. Raises EventTimeout saying what
    # it waited for and which events the account did have.
    def wait_for_event(type = nil, api_key: nil, account_id: nil, object_id: nil, timeout: 10)
      api_key ||= self.api_key if account_id.nil?
      match = { type: type, api_key: api_key, account_id: account_id, object_id: object_id }.compact
      deadline = monotonic + timeout
      loop do
        left_ms = [((deadline - monotonic) * 1000).ceil, 0].max
        found = events(**match, limit: 1, wait: [left_ms, LONGEST_POLL_MS].min)["data"].first
        return found if found
        break if left_ms.zero? || monotonic >= deadline
      end
      seen = last_events(api_key: api_key, account_id: account_id)
      raise EventTimeout.new(timeout_message(match, timeout, seen), match: match, seen: seen)
    end

    private

    # The account's newest events (a few pages at most: enough to say what happened instead).
    def last_events(**whose)
      seen = []
      after = nil
      5.times do
        page = events(**whose, after: after, limit: 100)
        seen = (seen + page["data"]).last(SHOWN)
        break if !page["has_more"] || page["data"].empty?

        after = page["data"].last["id"]
      end
      seen
    end

    def timeout_message(match, timeout, seen)
      what = "#{match[:type] ? Array(match[:type]).join(' or ') : 'any'} event"
      what += " of #{match[:object_id]}" if match[:object_id]
      whose = match[:api_key] ? " on the account of #{match[:api_key]}" : " on account #{match[:account_id]}"
      arrived = if seen.empty?
                  "it has had no events at all"
                else
                  "its last events were: #{seen.map { |e| "#{e['type']} #{e.dig('data', 'object', 'id')} (#{e['id']})" }.join(', ')}"
                end
      "No #{what}#{whose} within #{timeout} s; #{arrived}."
    end

    def monotonic = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end
end
