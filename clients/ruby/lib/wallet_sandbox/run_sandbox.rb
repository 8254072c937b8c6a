# frozen_string_literal: true

module WalletSandbox
  # The sandbox of one test run, as the RSpec and Minitest integrations hold it: started (or
  # attached to) by the first test that needs it, so that a run of unit tests alone never starts
  # one, and shared by every test and thread after it. A start that failed is not tried again: the
  # first test that needed the sandbox fails with the whole reason, every later one at once with a
  # line that points to it, so a long run says why once.
  class RunSandbox
    # `options` answers the keywords of WalletSandbox.start, read at the first use.
    def initialize(&options)
      @options = options
      @lock = Mutex.new
      @sandbox = nil
      @failure = nil
    end

    def get
      @lock.synchronize do
        raise @failure, again(@failure), caller if @failure

        @sandbox ||= WalletSandbox.start(**@options.call)
      rescue WalletSandbox::Error => e
        @failure ||= e
        raise
      end
    end

    def stop
      @lock.synchronize do
        @sandbox&.stop
        @sandbox = nil
        @failure = nil
      end
    end

    private

    def again(failure)
      "wallet-sandbox did not start for this run: the first test that needed it failed with the " \
        "reason (#{failure.class}), and it is not tried again."
    end
  end
end
