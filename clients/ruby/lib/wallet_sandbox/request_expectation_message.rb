# frozen_string_literal: true

require "json"

module WalletSandbox
  # The message of an unmet request expectation, as a test runner shows an assertion's failure: what
  # was expected and how many matched, then the account's closest requests, each difference on a line
  # of its own:
  #
  #   Expected at least 1 request matching {"method":"POST","body":{"amount":"10.00"}} from the account of sk_test_…_key; 0 matched.
  #   Closest requests:
  #     POST /v1/payments 201 (req_…, 2026-01-01T00:00:00.000Z)
  #       body.amount: expected "10.00", got "10"
  module RequestExpectationMessage
    # How many matched requests a message lists (the API sends at most 5 near misses).
    SHOWN = 5
    # What says whose requests and how many, rather than what they look like.
    NOT_THE_PATTERN = %i[api_key account_id count exactly within_ms].freeze

    module_function

    # `expectation`: the body sent to POST /_sandbox/requests/expect (Symbol keys); `result`: its `data`.
    def describe(expectation, result)
      matched = result.fetch("matched")
      near_misses = result.fetch("near_misses")
      lines = [headline(expectation, matched.size)]
      lines.push("Matched:", *matched.first(SHOWN).map { |request| "  #{request_line(request)}" }) if expectation[:exactly] && matched.any?
      if near_misses.any?
        lines << "Closest requests:"
        near_misses.each do |miss|
          lines.push("  #{request_line(miss.fetch('request'))}", *miss.fetch("differences").map { |difference| "    #{difference_line(difference)}" })
        end
      elsif matched.empty?
        lines << "The account has no other /v1 requests in the journal."
      end
      lines.join("\n")
    end

    # `POST /v1/payments 201 (req_…, replayed, 2026-01-01T00:00:00.000Z)`
    def request_line(request)
      query = request["query"] ? "?#{request['query']}" : ""
      replayed = request["replayed"] ? ", replayed" : ""
      "#{request['method']} #{request['path']}#{query} #{request['status'] || 'no answer'} (#{request['id']}#{replayed}, #{request['at']})"
    end

    # `body.amount: expected "10.00", got "10"`; a header expected true is `present`, false `absent`;
    # a field the request did not have, `got nothing`.
    def difference_line(difference)
      header = difference.fetch("field").start_with?("headers.")
      shown = lambda do |value|
        if header && value == true then "present"
        elsif header && value == false then "absent"
        else JSON.generate(value)
        end
      end
      got = difference.key?("actual") ? shown.call(difference["actual"]) : "nothing"
      "#{difference['field']}: expected #{shown.call(difference['expected'])}, got #{got}"
    end

    # `sk_test_…_key`: a key's kind and last 4 characters, as the journal shows it.
    def mask_key(key) = "#{key[/\A(sk|rk)_(test|live)_/]}…#{key.length >= 12 ? key[-4..] : ''}"

    def headline(expectation, matched)
      count = expectation.fetch(:count, 1)
      how = if count.zero? && expectation[:exactly] then "no request"
            else "#{expectation[:exactly] ? 'exactly' : 'at least'} #{count} #{count == 1 ? 'request' : 'requests'}"
            end
      pattern = JSON.generate(expectation.reject { |name, _| NOT_THE_PATTERN.include?(name) })
      whose = expectation[:api_key] ? "the account of #{mask_key(expectation[:api_key])}" : "account #{expectation[:account_id]}"
      "Expected #{how} matching #{pattern} from #{whose}#{window(expectation.fetch(:within_ms, 0))}; #{matched} matched."
    end

    # ` within 10 s`, ` within 500 ms`, or nothing for what had been answered already.
    def window(ms)
      return "" if ms.zero?

      (ms % 1000).zero? ? " within #{ms / 1000} s" : " within #{ms} ms"
    end
    private_class_method :headline, :window
  end
end
