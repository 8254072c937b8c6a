# frozen_string_literal: true

require "test_helper"
require "without_a_command"

# The run's sandbox as the Minitest integration holds it: a start that fails says why once, in the
# first test that needed it, and is not tried again for the others.
class RunSandboxTest < Minitest::Test
  CLIENT = WithoutACommand::CLIENT

  def test_without_a_command_the_first_test_says_which_option_and_variable_to_set_and_the_others_point_to_it
    output, status = WithoutACommand.run(RbConfig.ruby, "-I#{CLIENT}/lib", "-I#{CLIENT}/test",
                                         "#{CLIENT}/test/fixtures/three_tests_need_the_sandbox.rb")
    refute status.success?, output
    assert_match(/^3 runs, 0 assertions, 0 failures, 3 errors, 0 skips$/, output)
    assert_match(/`npx --no-install wallet-sandbox --ready-json --port 0 --clock manual --settle manual` exited with code 1 before it was ready \(no wallet-sandbox command was found, neither bin: nor WALLET_SANDBOX_BIN/, output)
    assert_equal 1, output.scan("or set WALLET_SANDBOX_BIN, to the command").size, output
    assert_equal 1, output.scan("npm error code E404").size, output
    assert_equal 2, output.scan("the first test that needed it failed with the reason").size, output
  end
end
