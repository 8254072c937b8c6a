# frozen_string_literal: true

module WalletSandbox
  # Every error this gem raises.
  class Error < StandardError; end

  # The sandbox did not start: the message names the command, how it ended and what it wrote (its
  # first lines and its last, when it wrote many).
  class StartError < Error
    attr_reader :command, :exit_code, :first_lines, :last_lines

    def initialize(message, command:, exit_code: nil, first_lines: [], last_lines: [])
      super(message)
      @command = command
      @exit_code = exit_code
      @first_lines = first_lines
      @last_lines = last_lines
    end
  end

  # The sandbox's major.minor version is not the one this gem is written for.
  class VersionMismatch < Error; end

  # A request answered with an error: the API's `{error: {type, code, message, param}, request_id}`.
  class APIError < Error
    attr_reader :status, :code, :type, :param, :request_id, :body

    def initialize(message, status:, body:)
      super(message)
      error = body.is_a?(Hash) && body["error"].is_a?(Hash) ? body["error"] : {}
      @status = status
      @code = error["code"]
      @type = error["type"]
      @param = error["param"]
      @request_id = body["request_id"] if body.is_a?(Hash)
      @body = body
    end
  end

  # No matching event within the time allowed; the message says what was awaited and what came instead.
  class EventTimeout < Error
    attr_reader :match, :seen

    def initialize(message, match:, seen:)
      super(message)
      @match = match
      @seen = seen
    end
  end

  # A request expectation that was not met (Control#expect_request, #expect_no_request): the message
  # shows the expectation and the account's closest requests, each difference as `field: expected …,
  # got …`; `expectation` is what was asked, `result` the API's `{"satisfied", "matched", "near_misses"}`.
  class RequestExpectationError < Error
    attr_reader :expectation, :result

    def initialize(message, expectation:, result:)
      super(message)
      @expectation = expectation
      @result = result
    end
  end
end
