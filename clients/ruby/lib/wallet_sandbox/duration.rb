# frozen_string_literal: true

module WalletSandbox
  # How the clock calls take a length of time: keywords that name their unit (`seconds: 30`,
  # `ms: 1500`, `minutes: 5`, `hours: 1`, added up), or an ActiveSupport::Duration (`30.seconds`)
  # when the application has ActiveSupport. Never a bare number, whose unit a reader would have to
  # guess (CONTRACT.md section 24).
  module Duration
    MS_PER = { hours: 3_600_000, minutes: 60_000, seconds: 1000, ms: 1 }.freeze

    module_function

    # Whole milliseconds. `caller_name` names the method in the ArgumentError that a bare number, or
    # nothing, gets.
    def to_ms(duration = nil, caller_name: "advance_clock", hours: nil, minutes: nil, seconds: nil, ms: nil)
      parts = { hours: hours, minutes: minutes, seconds: seconds, ms: ms }.compact
      if active_support?(duration) && parts.empty?
        duration.in_milliseconds.round
      elsif duration.nil? && !parts.empty?
        parts.sum { |unit, amount| amount * MS_PER.fetch(unit) }.round
      else
        raise ArgumentError, misuse(duration, parts, caller_name)
      end
    end

    # A number without a unit (an ActiveSupport::Duration says it is Numeric too, but has one).
    def bare?(duration) = duration.is_a?(Numeric) && !active_support?(duration)

    # ActiveSupport's own class, asked by name: its core extensions give every Numeric
    # #in_milliseconds too, reading a bare number as seconds.
    def active_support?(duration) = defined?(::ActiveSupport::Duration) ? duration.is_a?(::ActiveSupport::Duration) : false

    def misuse(duration, parts, caller_name)
      if bare?(duration)
        "#{caller_name} takes a unit: #{caller_name}(ms: #{duration}) or #{caller_name}(seconds: #{duration}), " \
          "not a bare #{duration}"
      elsif duration && !parts.empty?
        "#{caller_name} takes a duration or the keywords #{MS_PER.keys.join(', ')}, not both"
      else
        "#{caller_name} takes how long: #{caller_name}(seconds: 30), #{caller_name}(ms: 1500), " \
          "#{caller_name}(minutes: 5, seconds: 30), or an ActiveSupport::Duration such as 30.seconds" \
          "#{duration.nil? ? '' : ", not #{duration.inspect}"}"
      end
    end
    private_class_method :misuse
  end
end
