# frozen_string_literal: true

require "test_helper"
require "open3"

# The worked example of docs/ruby.md, "Asserting what your code sent" (examples/requests), run as a
# user runs it, in a process of its own attached to this run's sandbox: the retried payment's test
# passes, and the one that fails on purpose fails with the near miss, as the page shows it.
class RequestsExampleTest < Minitest::Test
  include WalletSandbox::Minitest

  CLIENT = File.expand_path("..", __dir__)
  EXAMPLE = File.join(CLIENT, "examples/requests")
  NEAR_MISS = 'body.amount: expected "10.00", got "10"'

  def run_example(*command)
    env = { "WALLET_SANDBOX_BASE_URL" => wallet_sandbox.base_url, "WALLET_SANDBOX_API_KEY" => nil, "WALLET_SANDBOX_CONTROL_TOKEN" => nil }
    output, status = Open3.capture2e(env, *command, chdir: EXAMPLE)
    refute status.success?, output
    output
  end

  # The page's failure, `…` standing for what varies (ids, keys, times).
  def shown_failure
    page = File.read(File.expand_path("../../docs/ruby.md", CLIENT))
    block = page[/RSpec prints its failure:\n\n```text\n(.*?)^```$/m, 1]
    refute_nil block, "docs/ruby.md shows the RSpec failure"
    Regexp.new(block.lines(chomp: true).map { |line| Regexp.escape(line).gsub("…", ".+") }.join("\n"))
  end

  def test_with_rspec_the_retry_passes_and_the_amount_fails_with_its_near_miss_as_the_page_shows
    output = run_example("rspec", "-I", File.join(CLIENT, "lib"), "payments_sent_spec.rb")
    assert_match(/^2 examples, 1 failure$/, output)
    assert_match(/^rspec \.\/payments_sent_spec\.rb:\d+ # InvoicePayer fails on purpose: the amount went out as "10"$/, output)
    assert_includes output, "           #{NEAR_MISS}\n"
    assert_match shown_failure, output
  end

  def test_with_minitest_the_retry_passes_and_the_amount_fails_with_its_near_miss
    output = run_example(RbConfig.ruby, "-I", File.join(CLIENT, "lib"), "payments_sent_test.rb")
    assert_match(/^2 runs, \d+ assertions, 1 failures, 0 errors, 0 skips$/, output)
    assert_match(/^PaymentsSentTest#test_fails_on_purpose_the_amount_went_out_as_10 \[payments_sent_test\.rb:\d+\]:\n/, output)
    assert_match(/^Closest requests:\n  POST \/v1\/payments 201 \(req_\w+, [-\d:.TZ]+\)\n    #{Regexp.escape(NEAR_MISS)}$/, output)
  end
end
