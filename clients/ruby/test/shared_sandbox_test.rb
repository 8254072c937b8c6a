# frozen_string_literal: true

require "test_helper"
require "open3"

# A sandbox this process attached to (wallet-sandbox exec, WALLET_SANDBOX_BASE_URL) is shared with
# other tests: its first sandbox-wide advance, snapshot, restore or reset warns, once per process,
# pointing at the test's line; an account's own calls, and a sandbox of its own, never warn.
class SharedSandboxTest < Minitest::Test
  LIB = File.expand_path("../lib", __dir__)
  LAUNCH_ENV = ENV.to_h.merge("WALLET_SANDBOX_BASE_URL" => nil)

  SCRIPT = <<~RUBY
    require "wallet_sandbox"
    sandbox = WalletSandbox.start
    account = sandbox.new_account
    account.advance_clock(seconds: 1)
    account.restore(account.snapshot)
    account.reset
    sandbox.reset(api_key: account.api_key)
    $stderr.puts "the account's own calls are done"
    sandbox.advance_clock(seconds: 1)
    sandbox.advance_clock(ms: 1)
    sandbox.restore(sandbox.snapshot)
    sandbox.reset
    puts sandbox.attached?
  RUBY

  def run_script(*launcher)
    Open3.capture3(LAUNCH_ENV, *launcher, RbConfig.ruby, "-I#{LIB}", "-e", SCRIPT)
  end

  def test_under_exec_the_first_sandbox_wide_call_warns_once
    out, err, status = run_script("node", ENV.fetch("WALLET_SANDBOX_BIN"), "exec", "--clock", "manual", "--")
    assert_equal ["true\n", 0], [out, status.exitstatus], err
    assert_equal <<~STDERR, err
      the account's own calls are done
      -e:9: warning: #{WalletSandbox::SharedSandboxWarning.message('clock advance')}
    STDERR
  end

  def test_a_sandbox_this_process_started_never_warns
    out, err, status = run_script
    assert_equal ["false\n", "the account's own calls are done\n", 0], [out, err, status.exitstatus]
  end
end
