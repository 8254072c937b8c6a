# frozen_string_literal: true

require "test_helper"

# How an unmet request expectation reads (no sandbox: the API's answers are written out here).
class RequestExpectationMessageTest < Minitest::Test
  KEY = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"

  def describe(...) = WalletSandbox::RequestExpectationMessage.describe(...)

  def request(**fields)
    { "id" => "req_1", "method" => "POST", "path" => "/v1/payments", "query" => nil, "status" => 201, "replayed" => false,
      "at" => "2026-01-01T00:00:00.000Z" }.merge(fields.transform_keys(&:to_s))
  end

  # A difference's line; without `actual`, the request had no such field.
  def line(field, expected, *actual)
    WalletSandbox::RequestExpectationMessage.difference_line({ "field" => field, "expected" => expected, **actual.to_h { |value| ["actual", value] } })
  end

  def result(matched: [], near_misses: []) = { "satisfied" => false, "matched" => matched, "near_misses" => near_misses }

  def test_each_near_miss_shows_its_differences_as_expected_and_got
    expectation = { api_key: KEY, method: "POST", path: "/v1/payments", body: { amount: "10.00" } }
    near_misses = [
      { "request" => request, "differences" => [{ "field" => "body.amount", "expected" => "10.00", "actual" => "10" }] },
      { "request" => request(id: "req_2", method: "GET", path: "/v1/wallets", query: "limit=1", status: 200, replayed: true),
        "differences" => [{ "field" => "method", "expected" => "POST", "actual" => "GET" },
                          { "field" => "body", "expected" => { "amount" => "10.00" } }] },
    ]
    assert_equal <<~MESSAGE.chomp, describe(expectation, result(near_misses: near_misses))
      Expected at least 1 request matching {"method":"POST","path":"/v1/payments","body":{"amount":"10.00"}} from the account of sk_test_…p7dc; 0 matched.
      Closest requests:
        POST /v1/payments 201 (req_1, 2026-01-01T00:00:00.000Z)
          body.amount: expected "10.00", got "10"
        GET /v1/wallets?limit=1 200 (req_2, replayed, 2026-01-01T00:00:00.000Z)
          method: expected "POST", got "GET"
          body: expected {"amount":"10.00"}, got nothing
    MESSAGE
  end

  def test_a_header_expected_true_is_present_false_absent_and_one_not_sent_is_nothing
    assert_equal "headers.x-trace: expected present, got nothing", line("headers.x-trace", true)
    assert_equal 'headers.x-trace: expected absent, got "abc"', line("headers.x-trace", false, "abc")
    assert_equal 'headers.x-trace: expected "abc", got "abd"', line("headers.x-trace", "abc", "abd")
    assert_equal "query.limit: expected true, got nothing", line("query.limit", true)
    assert_equal 'status: expected "4xx", got 201', line("status", "4xx", 201)
  end

  def test_how_many_and_how_long_whose_and_a_request_without_an_answer
    exactly = { account_id: "acct_1", path: "/v1/payouts", count: 2, exactly: true, within_ms: 1500 }
    matched = [request(path: "/v1/payouts", status: nil)]
    assert_equal "Expected exactly 2 requests matching {\"path\":\"/v1/payouts\"} from account acct_1 within 1500 ms; 1 matched.\n" \
                 "Matched:\n  POST /v1/payouts no answer (req_1, 2026-01-01T00:00:00.000Z)", describe(exactly, result(matched: matched))
    none = { api_key: KEY, method: "DELETE", count: 0, exactly: true, within_ms: 2000 }
    assert_match(/\AExpected no request matching \{"method":"DELETE"\} from the account of sk_test_…p7dc within 2 s; 1 matched\.\nMatched:\n/,
                 describe(none, result(matched: matched)))
    assert_equal "Expected at least 1 request matching {} from the account of sk_test_…p7dc; 0 matched.\n" \
                 "The account has no other /v1 requests in the journal.", describe({ api_key: KEY }, result)
  end

  def test_a_key_is_never_shown_whole
    assert_equal "sk_test_…p7dc", WalletSandbox::RequestExpectationMessage.mask_key(KEY)
    assert_equal "rk_live_…wxyz", WalletSandbox::RequestExpectationMessage.mask_key("rk_live_abcdefghwxyz")
    assert_equal "…", WalletSandbox::RequestExpectationMessage.mask_key("short")
  end

  def test_within_takes_its_unit
    within_ms = ->(within) { WalletSandbox::RequestExpectations.within_ms(within) }
    assert_equal [0, 2000, 500, 61_500], [within_ms.call(nil), within_ms.call({ seconds: 2 }), within_ms.call({ ms: 500 }), within_ms.call({ minutes: 1, seconds: 1.5 })]
    [5, {}, "2s"].each do |bad|
      assert_match(/\Awithin: takes how long with its unit: within: \{ seconds: 2 \}, .*; not #{Regexp.escape(bad.inspect)}\z/,
                   assert_raises(ArgumentError) { within_ms.call(bad) }.message)
    end
    assert_raises(ArgumentError) { within_ms.call({ secs: 2 }) }
  end
end
