# frozen_string_literal: true

require "test_helper"
require "open3"

# How long a clock advance is: keywords that name their unit, or an ActiveSupport::Duration.
class DurationTest < Minitest::Test
  include WalletSandbox::Minitest

  def to_ms(...) = WalletSandbox::Duration.to_ms(...)

  def test_the_keywords_add_up_to_whole_milliseconds
    assert_equal 1500, to_ms(ms: 1500)
    assert_equal 30_000, to_ms(seconds: 30)
    assert_equal 1100, to_ms(seconds: 1.1)
    assert_equal 3_723_004, to_ms(hours: 1, minutes: 2, seconds: 3, ms: 4)
  end

  def test_a_bare_number_nothing_or_both_are_refused_with_the_forms_that_work
    assert_equal "advance_clock takes a unit: advance_clock(ms: 60) or advance_clock(seconds: 60), not a bare 60",
                 assert_raises(ArgumentError) { to_ms(60) }.message
    assert_match(/\Aadvance_clock takes how long: advance_clock\(seconds: 30\), .* such as 30.seconds\z/,
                 assert_raises(ArgumentError) { to_ms }.message)
    assert_match(/, not "1m"\z/, assert_raises(ArgumentError) { to_ms("1m") }.message)
    assert_raises(ArgumentError) { to_ms(minute: 1) }
  end

  # In a process of its own, so that ActiveSupport's core extensions stay out of this one. (They give
  # every number #in_milliseconds, reading it as seconds: a bare number must still be refused.)
  def test_an_ActiveSupport_Duration_when_the_application_has_ActiveSupport
    skip "ActiveSupport is not installed (Debian: ruby-activesupport)" unless system(RbConfig.ruby, "-e", 'require "active_support"', err: File::NULL)

    script = <<~RUBY
      require "active_support"
      require "active_support/core_ext/numeric/time"
      require "wallet_sandbox"
      account = WalletSandbox.attach(ENV.fetch("WALLET_SANDBOX_BASE_URL")).new_account
      puts account.advance_clock(90.seconds)["offset_ms"], account.advance_clock(1.hour)["offset_ms"]
      puts WalletSandbox::Duration.to_ms(1.5.seconds)
      account.advance_clock(5.minutes, seconds: 1) rescue puts $!.message
      account.advance_clock(5000) rescue puts $!.message
    RUBY
    output, status = Open3.capture2e({ "WALLET_SANDBOX_BASE_URL" => wallet_sandbox.base_url },
                                     RbConfig.ruby, "-I#{File.expand_path('../lib', __dir__)}", "-e", script)
    assert status.success?, output
    assert_equal ["90000", "3690000", "1500", "advance_clock takes a duration or the keywords hours, minutes, seconds, ms, not both",
                  "advance_clock takes a unit: advance_clock(ms: 5000) or advance_clock(seconds: 5000), not a bare 5000"],
                 output.lines(chomp: true)
  end
end
