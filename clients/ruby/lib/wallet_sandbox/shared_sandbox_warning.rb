# frozen_string_literal: true

module WalletSandbox
  # Said once per process, through Kernel#warn, at the first sandbox-wide clock advance, snapshot,
  # restore or reset on a sandbox this process attached to (`wallet-sandbox exec`,
  # WALLET_SANDBOX_BASE_URL): other test processes share that sandbox, and such a call reaches their
  # accounts too. The warning points at the line of the test that made the call; `ruby -W0` (or a
  # Warning.warn of the application's own) silences it as any other.
  module SharedSandboxWarning
    LIB = "#{File.expand_path("..", __dir__)}/"

    @lock = Mutex.new
    @said = false

    class << self
      def say(operation)
        @lock.synchronize do
          return if @said

          @said = true
        end
        warn(message(operation), uplevel: first_frame_outside_the_gem)
      end

      def message(operation)
        "wallet-sandbox: a sandbox-wide #{operation} on a sandbox this process did not start (wallet-sandbox exec or " \
          "WALLET_SANDBOX_BASE_URL) affects every test that shares it. Use the test's own account for it: " \
          "sandbox_account.advance_clock(seconds: …), .snapshot, .restore(snapshot), .reset. (Said once per process.)"
      end

      private

      # Kernel#warn's uplevel, counted from #say's own frame (0).
      def first_frame_outside_the_gem
        caller_locations(1).index { |frame| !(frame.absolute_path || frame.path).to_s.start_with?(LIB) } || 0
      end
    end
  end
end
