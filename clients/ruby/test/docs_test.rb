# frozen_string_literal: true

require "test_helper"
require "fileutils"
require "open3"
require "isolation/parallel_commands"

# docs/ruby.md shows its examples as the files the suites run, each exactly, and the plain script's
# output is what its comments say (`…` standing for what varies).
class DocsTest < Minitest::Test
  CLIENT = File.expand_path("..", __dir__)
  PAGE = File.expand_path("../../docs/ruby.md", CLIENT)
  EXAMPLES = %w[examples/start_and_stop.rb spec/spec_helper.rb spec/scenario_spec.rb test/test_helper.rb test/scenario_test.rb
                examples/parallel/spec/spec_helper.rb examples/parallel/spec/settlement_spec.rb
                examples/parallel/test/payments_test.rb examples/requests/invoice_payer.rb
                examples/requests/payments_sent_spec.rb examples/requests/payments_sent_test.rb].freeze

  def page = File.read(PAGE)

  # Each `[`path`](../clients/ruby/path):` line followed by a ruby block: [path, the block's text].
  def shown = page.scan(%r{^\[`([^`]+)`\]\(\.\./clients/ruby/\1\):\n\n```ruby\n(.*?)^```$}m)

  def test_the_page_shows_each_example_file_exactly_once
    assert_equal EXAMPLES, shown.map(&:first)
    shown.each { |path, code| assert_equal File.read(File.join(CLIENT, path)), code, "docs/ruby.md shows #{path} otherwise" }
  end

  def test_the_page_has_no_other_ruby_block
    assert_equal EXAMPLES.size, page.scan(/^```ruby$/).size
  end

  # The commands test/isolation/parallel_runs_test.rb runs 20 times each.
  def test_the_page_gives_the_parallel_commands_the_isolation_runs_run
    ParallelCommands.shown.each { |command| assert_includes page, "npx #{command}\n" }
  end

  def test_the_gem_builds_offline_as_the_page_says
    command = page[/^```sh\n(cd clients\/ruby && gem build wallet_sandbox\.gemspec)\n```$/, 1]
    refute_nil command, "docs/ruby.md shows how to build the gem"
    output, status = Open3.capture2e(command, chdir: File.expand_path("../..", CLIENT))
    assert status.success?, output
    assert File.file?(File.join(CLIENT, "wallet_sandbox-#{WalletSandbox::VERSION}.gem")), output
  ensure
    FileUtils.rm_f(File.join(CLIENT, "wallet_sandbox-#{WalletSandbox::VERSION}.gem"))
  end

  def test_the_script_prints_what_its_comments_say
    script = File.join(CLIENT, "examples/start_and_stop.rb")
    output, status = Open3.capture2e({ "WALLET_SANDBOX_BASE_URL" => nil }, RbConfig.ruby, "-I#{CLIENT}/lib", script)
    assert status.success?, output
    expected = File.read(script).scan(/# => (.*)$/).flatten
    assert_equal expected.size, output.lines.size, output
    expected.zip(output.lines(chomp: true)).each do |comment, line|
      assert_match(/\A#{Regexp.escape(comment).gsub('…', '.+')}\z/, line)
    end
  end
end
