/**
 * A schema's own message for a value that is present but wrong. For an absent field it returns
 * nothing, so the shared error map answers `<field> is required` (code `parameter_missing`).
 */
export const whenPresent =
  (message: string) =>
  (issue: { input?: unknown }): string | undefined =>
    issue.input === undefined ? undefined : message
