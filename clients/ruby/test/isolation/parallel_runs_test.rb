# frozen_string_literal: true

require "minitest/autorun"
require "open3"
require_relative "parallel_commands"

# Issue 29's failures, as tests: under one `wallet-sandbox exec --clock manual --settle auto`, two
# RSpec processes (examples/parallel/spec) and a Minitest class with parallelize_me!
# (examples/parallel/test) whose tests advance their accounts' clocks, snapshot and restore their
# accounts while the others pay and settle. Each is run RUNS times, each run a test of its own. With
# sandbox-wide clocks and snapshots every such run failed (8 runs in 8 of each).
class ParallelRunsTest < Minitest::Test
  include ParallelCommands

  RUNS = Integer(ENV.fetch("WALLET_SANDBOX_PARALLEL_RUNS", "20"))
  # The gem from this checkout (an application has it from its Gemfile); four threads for parallelize_me!.
  RUN_ENV = ENV.to_h.merge("WALLET_SANDBOX_BASE_URL" => nil, "RUBYLIB" => File.expand_path("../../lib", __dir__), "MT_CPU" => "4")

  # `command` under exec, with this checkout's command line in place of `wallet-sandbox`.
  def under_exec(*command)
    output, status = Open3.capture2e(RUN_ENV, "node", ENV.fetch("WALLET_SANDBOX_BIN"), *EXEC.drop(1), *command, chdir: EXAMPLE)
    assert status.success?, output
    output
  end

  RUNS.times do |n|
    define_method(:"test_two_rspec_processes_under_one_exec_run_#{n + 1}") do
      assert_equal 2, under_exec(*RSPEC).scan(/^3 examples, 0 failures$/).size
    end

    define_method(:"test_minitest_parallelize_me_under_one_exec_run_#{n + 1}") do
      assert_match(/^4 runs, \d+ assertions, 0 failures, 0 errors, 0 skips$/, under_exec(RbConfig.ruby, *MINITEST.drop(1)))
    end
  end
end
