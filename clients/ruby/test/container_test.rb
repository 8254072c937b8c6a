# frozen_string_literal: true

require "test_helper"
require "fileutils"
require "json"
require "process_tree"
require "tmpdir"

# The image path, with test/fixtures/stub-engine on the engine's side: no container engine runs on
# this machine, so the stub starts the command line where docker would start the container, and
# logs how it was called.
class ContainerTest < Minitest::Test
  STUB = File.expand_path("fixtures/stub-engine", __dir__)
  LAUNCH_ENV = ENV.to_h.merge("WALLET_SANDBOX_BASE_URL" => nil)

  def setup
    @dir = Dir.mktmpdir("wallet-sandbox-engine")
    ENV["STUB_ENGINE_DIR"] = @dir
  end

  def teardown
    ENV.delete("STUB_ENGINE_DIR")
    FileUtils.rm_rf(@dir)
  end

  def calls = File.readlines(File.join(@dir, "calls"), chomp: true)
  def state(name) = JSON.parse(File.read(File.join(@dir, "#{name}.json")))

  def test_an_image_runs_through_the_engine_and_answers_on_the_host_port_the_engine_maps
    sandbox = WalletSandbox.start(image: "wallet-sandbox:test", engine: STUB, args: %w[--clock manual], env: LAUNCH_ENV)
    name = calls[0][/\Arun --rm --name (wallet-sandbox-\h{12}) -p 127\.0\.0\.1::4400 wallet-sandbox:test --ready-json --clock manual\z/, 1]
    refute_nil name, calls[0]
    assert_equal ["port #{name} 4400/tcp"], calls[1..]
    assert_equal "http://127.0.0.1:#{state(name)['port']}", sandbox.base_url
    assert_equal "manual", sandbox.clock["mode"]

    sandbox.stop
    assert_equal "stop #{name}", calls[2]
    refute ProcessTree.alive?(state(name)["pid"])
  end

  def test_the_engine_is_docker_unless_WALLET_SANDBOX_CONTAINER_ENGINE_or_engine_says_otherwise
    assert_equal "docker", WalletSandbox::Container.engine(env: {})
    assert_equal "podman", WalletSandbox::Container.engine(env: { "WALLET_SANDBOX_CONTAINER_ENGINE" => "podman" })
    assert_equal "nerdctl", WalletSandbox::Container.engine("nerdctl", env: { "WALLET_SANDBOX_CONTAINER_ENGINE" => "podman" })
  end

  def test_a_killed_test_process_stops_its_container_too
    tree = ProcessTree.new(RbConfig.ruby, "-Ilib", "test/fixtures/holds_a_container.rb", STUB)
    tree.await(/(container up)/)
    name = calls[0][/--name (\S+)/, 1]
    tree.kill("KILL")
    tree.wait_gone
    assert_equal "stop #{name}", calls.last
    refute ProcessTree.alive?(state(name)["pid"])
  end
end
