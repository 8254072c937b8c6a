# frozen_string_literal: true

require "json"
require "shellwords"
require_relative "errors"
require_relative "output_tail"
require_relative "supervisor"

module WalletSandbox
  # One running wallet-sandbox command, started through the Supervisor in a process group of its
  # own: the ready line it writes first on stdout, its output's last lines, and the way to stop it.
  class SandboxProcess
    # How long a sandbox has to exit after SIGTERM before its group gets SIGKILL.
    GRACE = 5

    @running = []
    @running_lock = Mutex.new

    class << self
      # Starts `command` and waits for its ready line; raises StartError if it exits first or stays
      # silent for `start_timeout` seconds (with `hint`, if given, after how it ended). `engine` and
      # `container` when the command is `<engine> run`.
      def start(command, start_timeout:, hint: nil, engine: nil, container: nil)
        process = new(command, hint: hint, engine: engine, container: container)
        process.await_ready(start_timeout)
        process
      end

      def track(process) = @running_lock.synchronize { @running << process }
      def untrack(process) = @running_lock.synchronize { @running.delete(process) }

      # Stops what this process started and has not stopped (at_exit; a fork's exit leaves the parent's alone).
      def stop_all
        @running_lock.synchronize { @running.dup }.each { |process| process.stop if process.owner == Process.pid }
      end
    end

    attr_reader :command, :tail, :ready, :owner, :supervisor_pid

    # `hint`: what a failed start's message says after how the command ended.
    def initialize(command, hint: nil, engine: nil, container: nil)
      @command = command
      @hint = hint
      @engine = engine
      @container = container
      @tail = OutputTail.new
      @lock = Mutex.new
      @changed = ConditionVariable.new
      @ready = :pending
      @owner = Process.pid
      spawn_supervised
      self.class.track(self)
    end

    # The sandbox's process id, as its ready line gives it (inside the container for an image).
    def pid = @ready.is_a?(Hash) ? @ready["pid"] : nil

    def await_ready(timeout)
      case wait_for_ready_line(timeout)
      when Hash then @ready
      when :timeout then fail_start("did not write its ready line within #{timeout} s")
      else
        code = exit_code
        fail_start("exited with code #{code} before it was ready", code)
      end
    end

    # SIGTERM to the whole group, SIGKILL after `grace` seconds; `<engine> stop` first for a container.
    # Returns once the sandbox's output has ended, that is once it is gone.
    def stop(grace: GRACE)
      @lock.synchronize do
        return if @stopped

        @stopped = true
      end
      system(@engine, "stop", @container, out: File::NULL, err: File::NULL) if @container
      signal("TERM")
      signal("KILL") unless @tail.wait_closed(grace)
      @stdin.close unless @stdin.closed?
      # The supervisor exits once it has seen the pipe close (and so the group is gone with it).
      signal("KILL") unless @supervisor.join(grace)
      self.class.untrack(self)
      nil
    end

    def description = Shellwords.join(@command)

    private

    def spawn_supervised
      stdin, @stdin = IO.pipe
      out, out_writer = IO.pipe
      err, err_writer = IO.pipe
      argv = Supervisor.argv(@command, engine: @engine, container: @container)
      @supervisor_pid = Process.spawn(*argv, in: stdin, out: out_writer, err: err_writer, pgroup: true)
      @supervisor = Process.detach(@supervisor_pid)
      [stdin, out_writer, err_writer].each(&:close)
      @tail.drain(err)
      # Output that ends before a ready line means the sandbox has gone.
      @tail.drain(out, at_end: -> { settle(nil) }) { |line| claim_ready_line(line) }
    end

    # The first line that is a ready line is the ready line; the others go into the tail.
    def claim_ready_line(line)
      return false unless @ready == :pending

      parsed = begin
        JSON.parse(line)
      rescue JSON::ParserError
        nil
      end
      parsed.is_a?(Hash) && parsed["ready"] == true && settle(parsed)
    end

    def settle(value)
      @lock.synchronize do
        @ready = value if @ready == :pending
        @changed.broadcast
      end
      true
    end

    def wait_for_ready_line(timeout)
      deadline = monotonic + timeout
      @lock.synchronize do
        while @ready == :pending
          left = deadline - monotonic
          return :timeout if left <= 0

          @changed.wait(@lock, left)
        end
        @ready
      end
    end

    # The sandbox's exit code, as its supervisor exits with it (once told to, by the closed pipe).
    def exit_code
      @stdin.close unless @stdin.closed?
      status = @supervisor.join(GRACE)&.value
      status&.exitstatus || (status&.termsig && 128 + status.termsig)
    end

    def fail_start(how, code = nil)
      stop
      first, left_out, last = @tail.excerpt
      message = start_message(how, code, first, left_out, last)
      raise StartError.new(message, command: @command, exit_code: code, first_lines: (first + last).first(OutputTail::HEAD),
                                    last_lines: last)
    end

    def start_message(how, code, first, left_out, last)
      hint = code == 127 ? "127: not found; pass bin: or set WALLET_SANDBOX_BIN to the wallet-sandbox command" : @hint
      "wallet-sandbox did not start: `#{description}` #{how}#{hint && " (#{hint})"}. #{what_it_wrote(first, left_out, last)}"
    end

    # All of it when it was short; else its first lines (where a mistyped flag is named) and its last.
    def what_it_wrote(first, left_out, last)
      return "It wrote nothing." if last.empty?
      return "It wrote:\n#{indent(last)}" if first.empty?

      gap = left_out.zero? ? [] : ["[#{left_out} lines left out]"]
      "Its first #{first.size} and last #{last.size} lines:\n#{indent(first + gap + last)}"
    end

    def indent(lines) = lines.map { |line| "  #{line}" }.join("\n")

    def signal(name)
      Process.kill(name, -@supervisor_pid)
    rescue Errno::ESRCH, Errno::EPERM
      nil
    end

    def monotonic = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end

  at_exit { SandboxProcess.stop_all }
end
