# frozen_string_literal: true

require "test_helper"
require "process_tree"
require "socket"
require "fileutils"
require "open3"
require "tmpdir"

# Starting, attaching and stopping: what goes wrong says so in one message.
class StartTest < Minitest::Test
  include WalletSandbox::Minitest

  FIXTURES = File.expand_path("fixtures", __dir__)
  # This process's environment, without a sandbox to attach to: these tests start their own.
  LAUNCH_ENV = ENV.to_h.merge("WALLET_SANDBOX_BASE_URL" => nil)

  def cli = ENV.fetch("WALLET_SANDBOX_BIN")

  def pid_file
    @dir ||= Dir.mktmpdir("wallet-sandbox-ruby")
    File.join(@dir, "pid")
  end

  def teardown
    FileUtils.rm_rf(@dir) if @dir
  end

  def test_a_sandbox_that_cannot_start_fails_with_the_command_its_exit_code_and_what_it_wrote
    error = assert_raises(WalletSandbox::StartError) { WalletSandbox.start(args: %w[--clock sideways], env: LAUNCH_ENV) }
    assert_equal 1, error.exit_code
    assert_equal <<~MESSAGE.chomp, error.message
      wallet-sandbox did not start: `node #{cli} --ready-json --port 0 --clock sideways` exited with code 1 before it was ready. It wrote:
        wallet-sandbox: Invalid configuration:
          --clock (WALLET_SANDBOX_CLOCK): Invalid option: expected one of "real"|"manual"
    MESSAGE
  end

  def test_a_mistyped_flag_is_among_the_first_lines_of_the_message
    error = assert_raises(WalletSandbox::StartError) { WalletSandbox.start(args: %w[--clok manual], env: LAUNCH_ENV) }
    assert_match(/\Aerror: unknown option '--clok'/, error.first_lines.first)
    assert_includes error.message, "\n  error: unknown option '--clok'"
  end

  def test_a_long_output_shows_its_first_lines_and_its_last
    error = assert_raises(WalletSandbox::StartError) { WalletSandbox.start(bin: "#{FIXTURES}/chatty-cli", env: LAUNCH_ENV) }
    help = (1..130).map { |n| "help line #{n}" }
    assert_equal ["error: unknown option '--clok'", *help.first(9)], error.first_lines
    assert_equal help.last(50), error.last_lines
    assert_equal <<~MESSAGE.chomp, error.message
      wallet-sandbox did not start: `#{FIXTURES}/chatty-cli --ready-json --port 0` exited with code 1 before it was ready. Its first 10 and last 50 lines:
        error: unknown option '--clok'
      #{help.first(9).map { |line| "  #{line}" }.join("\n")}
        [71 lines left out]
      #{help.last(50).map { |line| "  #{line}" }.join("\n")}
    MESSAGE
  end

  def test_a_command_that_is_not_there_says_how_to_name_the_right_one
    error = assert_raises(WalletSandbox::StartError) { WalletSandbox.start(bin: "/nowhere/wallet-sandbox", env: LAUNCH_ENV) }
    assert_equal 127, error.exit_code
    assert_match(/exited with code 127 before it was ready \(127: not found; pass bin: or set WALLET_SANDBOX_BIN/, error.message)
    assert_match(/not found/, error.last_lines.join("\n"))
  end

  def test_a_sandbox_that_never_gets_ready_is_stopped_after_the_start_timeout
    error = assert_raises(WalletSandbox::StartError) do
      WalletSandbox.start(bin: "#{FIXTURES}/silent-cli", args: [pid_file], start_timeout: 1, env: LAUNCH_ENV)
    end
    assert_equal "wallet-sandbox did not start: `#{FIXTURES}/silent-cli --ready-json --port 0 #{pid_file}` did not write " \
                 "its ready line within 1 s. It wrote:\n  starting, slowly", error.message
    refute ProcessTree.alive?(Integer(File.read(pid_file)))
  end

  def test_a_sandbox_of_another_minor_version_is_refused_and_stopped
    error = assert_raises(WalletSandbox::VersionMismatch) do
      WalletSandbox.start(bin: "#{FIXTURES}/other-version-cli", args: [pid_file], env: LAUNCH_ENV)
    end
    assert_equal "The sandbox that `#{FIXTURES}/other-version-cli --ready-json --port 0 #{pid_file}` started is wallet-sandbox " \
                 "\"0.2.0\", but this wallet_sandbox gem 0.1.0 is written for 0.1.x: use a gem and a sandbox of the same " \
                 "major.minor version.", error.message
    refute ProcessTree.alive?(Integer(File.read(pid_file)))
  end

  def test_stop_ends_the_sandbox_once_and_keeps_its_last_lines
    sandbox = WalletSandbox.start(env: LAUNCH_ENV)
    refute sandbox.attached?
    assert ProcessTree.alive?(sandbox.pid)
    assert_equal "ok", sandbox.health["status"]
    # The request log shows /v1 requests (control calls only with --log-control).
    sandbox.new_account.get("/wallets")
    sandbox.stop
    refute ProcessTree.alive?(sandbox.pid)
    assert_nil sandbox.stop
    assert(sandbox.log_tail.any? { |line| line.include?("/v1/wallets") }, sandbox.log_tail.join("\n"))
  end

  def test_start_attaches_to_the_sandbox_of_WALLET_SANDBOX_BASE_URL_and_starts_none
    attached = WalletSandbox.start(env: { "WALLET_SANDBOX_BASE_URL" => wallet_sandbox.base_url })
    assert attached.attached?
    assert_nil attached.pid
    assert_equal [wallet_sandbox.base_url, "#{wallet_sandbox.base_url}/v1", WalletSandbox::DEFAULT_API_KEY, "0.1.0"],
                 [attached.base_url, attached.url, attached.api_key, attached.version]
    attached.stop
    assert_equal "ok", wallet_sandbox.health["status"], "stop leaves a sandbox it attached to running"
  end

  def test_under_wallet_sandbox_exec_start_attaches_to_the_sandbox_exec_started
    script = 'require "wallet_sandbox"; s = WalletSandbox.start; puts [s.attached?, s.base_url == ENV["WALLET_SANDBOX_BASE_URL"], s.health["status"]].join(" ")'
    output, status = Open3.capture2e(LAUNCH_ENV, "node", cli, "exec", "--", RbConfig.ruby, "-I#{File.expand_path('../lib', __dir__)}", "-e", script)
    assert_equal ["true true ok\n", 0], [output, status.exitstatus]
  end

  def test_attach_takes_the_api_url_too
    assert_equal wallet_sandbox.base_url, WalletSandbox.attach("#{wallet_sandbox.base_url}/v1/").base_url
  end

  # The Node and Python helpers answered `No route POST /v1/_sandbox/keys` to this mistake.
  def test_a_WALLET_SANDBOX_BASE_URL_that_ends_in_v1_works_all_the_same
    attached = WalletSandbox.start(env: { "WALLET_SANDBOX_BASE_URL" => "#{wallet_sandbox.base_url}/v1" })
    assert_equal wallet_sandbox.base_url, attached.base_url
    assert_match(/\Aacct_/, attached.new_account.account_id)
  end

  def test_attach_refuses_a_sandbox_of_another_minor_version
    server = TCPServer.new("127.0.0.1", 0)
    Thread.new do
      client = server.accept
      client.gets("\r\n\r\n")
      client.write("HTTP/1.1 200 OK\r\nWallet-Sandbox-Version: 0.2.0\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
      client.close
    end
    url = "http://127.0.0.1:#{server.addr[1]}"
    error = assert_raises(WalletSandbox::VersionMismatch) { WalletSandbox.attach(url) }
    assert_equal "The sandbox at #{url} is wallet-sandbox \"0.2.0\", but this wallet_sandbox gem 0.1.0 is written for 0.1.x: " \
                 "use a gem and a sandbox of the same major.minor version.", error.message
  ensure
    server&.close
  end

  def test_attach_says_when_nothing_answers
    port = TCPServer.open("127.0.0.1", 0) { |server| server.addr[1] }
    error = assert_raises(WalletSandbox::Error) { WalletSandbox.attach("http://127.0.0.1:#{port}") }
    assert_match(/\ANothing answers at http:\/\/127\.0\.0\.1:#{port} \(.*\): is a sandbox running there\?\z/, error.message)
  end

  def test_the_control_token_goes_with_every_control_call
    sandbox = WalletSandbox.start(args: %w[--control-token tok --quiet], env: LAUNCH_ENV)
    assert_equal "tok", sandbox.control_token
    assert_equal "real", sandbox.clock["mode"]
    refused = assert_raises(WalletSandbox::APIError) { WalletSandbox::HTTP.new(sandbox.base_url).request(:get, "/_sandbox/clock") }
    assert_equal 401, refused.status
    attached = WalletSandbox.attach(sandbox.base_url, env: { "WALLET_SANDBOX_CONTROL_TOKEN" => "tok" })
    assert_equal "real", attached.clock["mode"]
  ensure
    sandbox&.stop
  end
end
